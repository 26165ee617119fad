// Reading `git log` of a content folder: when each file was added, and when it last changed.

/** What one read of the log says, path by path (relative to the content folder), in ms. */
export interface LogDates {
  /** The author date of the commit that added the file, renames followed (none for a shallow clone's cut). */
  added: Map<string, number>
  /** The committer date of the last commit that added, changed or renamed it. */
  changed: Map<string, number>
}

/**
 * Options of every git run over a content folder. A bare repository is used only when named (`GIT_DIR`): a pull
 * request could otherwise commit `HEAD`, `objects/` and `refs/` at the content folder's root, and git would read
 * that forged history there, dates of its choosing included.
 */
export const SAFE = ['-c', 'safe.bareRepository=explicit']

// One run over the whole folder, oldest commit first: every addition, rename and deletion of a file,
// with the commit's author date and parents. `--relative` gives paths relative to the folder, `-z`
// keeps odd file names intact, and the -c options keep a user's settings from changing the output.
export const LOG_ARGS = [
  ...SAFE,
  // Replacements (`git replace`) are local to a clone, and would change the log without moving HEAD.
  '--no-replace-objects',
  '-c',
  'log.showSignature=false',
  '-c',
  'diff.renames=true',
  '-c',
  'core.quotePath=false',
  '-c',
  'core.fsmonitor=false',
  'log',
  '--no-color',
  '--no-ext-diff',
  '--no-textconv',
  '--reverse',
  '--relative',
  '-z',
  '--name-status',
  '--diff-filter=ADMR',
  '-M',
  '--format=%x01%at%x02%P%x02%ct',
  '--',
  '.',
]

/**
 * Fields of the log read between two turns of the event loop. A history that added 42,000 files is ~100,000
 * fields: read in one turn, they held the static build's process 100–150 ms (profiled; a server-sized one 7–18 ms);
 * in turns of this many, a server's longest hold measured 8–12 ms.
 */
const FIELDS_PER_TURN = 8_000

/** Reads the log, letting the event loop go every FIELDS_PER_TURN fields. */
export async function readLog(log: string, shallow: boolean): Promise<LogDates> {
  const dates = logDates(shallow)
  for (const _ of walkLog(log, dates)) await new Promise((resolve) => setImmediate(resolve))
  return dates
}

/** What the walk tells of: each commit's header, then each of its changes. */
interface LogVisitor {
  commit(fields: string[]): void
  change(status: string, path: string, renamed: string): void
}

/** Both maps, filled as the walk tells of each commit and change. */
function logDates(shallow: boolean): LogDates & LogVisitor {
  const added = new Map<string, number>()
  const changed = new Map<string, number>()
  let authored = Number.NaN
  let committed = Number.NaN
  let cutOff = false
  return {
    added,
    changed,
    commit([seconds = '', parents = '', committerSeconds]) {
      authored = Number(seconds) * 1000
      // The committer's date for a change: a rebase or a cherry-pick lands a change at the time it lands.
      committed = Number(committerSeconds) * 1000
      // In a shallow clone the oldest commits have their parents cut off, so every file looks added there: those
      // dates are not the real ones and are left out (its files are still at least that recent for `changed`).
      cutOff = shallow && parents.trim() === ''
    },
    change(status, path, renamed) {
      const rename = status.startsWith('R')
      if (rename) {
        const at = added.get(path)
        added.delete(path)
        if (at !== undefined) added.set(renamed, at)
      } else if (status === 'D' || cutOff || !Number.isFinite(authored)) added.delete(path)
      else if (status === 'A') added.set(path, authored)
      if (rename) changed.delete(path)
      const target = rename ? renamed : path
      if (status === 'D') changed.delete(target)
      else if (Number.isFinite(committed)) changed.set(target, committed)
    },
  }
}

/**
 * Walks a `-z --name-status` log field by field, yielding every FIELDS_PER_TURN fields: a header (`\x01` and its
 * fields) where a status may come, then each status with its one path, or two for a rename. A path is any text but
 * NUL, `\x01` too: the log was once cut at every `\x01`, and a file named `0\x01<seconds>…` gave the files after it
 * in its commit a date of its own choosing.
 */
function* walkLog(log: string, visit: LogVisitor): Generator<void> {
  const fields = log.split('\0')
  let inCommit = false
  let turn = FIELDS_PER_TURN
  for (let i = 0; i < fields.length; ) {
    if (i >= turn) {
      turn = i + FIELDS_PER_TURN
      yield
    }
    // The header ends with a newline before the first change.
    const field = fields[i++]!.replace(/^\n/, '')
    if (field.startsWith('\x01')) {
      visit.commit(field.slice(1).split('\x02'))
      inCommit = true
    } else if (field !== '' && inCommit) {
      const rename = field.startsWith('R')
      visit.change(field, fields[i] ?? '', rename ? (fields[i + 1] ?? '') : '')
      i += rename ? 2 : 1
    }
  }
}
