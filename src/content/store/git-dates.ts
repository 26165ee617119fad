import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { type HistoryKey, readHistoryKey, toHistoryKey } from './git-head.ts'

/** A git run that takes longer, or says more, is given up: the files are then dated by their mtime. */
const GIT_TIMEOUT_MS = 15_000
const GIT_MAX_OUTPUT = 64 * 1024 * 1024

/**
 * When each file of a content folder was committed, for records written without `date`: the author
 * date of the commit that added the file (renames followed), which is the same on every clone of
 * the same commit, where a file's mtime is the moment of the clone.
 */
export interface CommitDates {
  /** The instant (ms) the file (relative to the content folder) was added, if git knows it. */
  get(path: string): number | undefined
  /** The instant (ms) of the last commit that added, changed or renamed the file, if git knows it. */
  changed(path: string): number | undefined
  /**
   * Asks git again: one run for the whole folder, one run at a time (a run finishing after a later one would put
   * back an older history). Never throws; without git the map stays empty, and a run that fails keeps what the last
   * one found. The paths whose last change (`changed`) moved, appeared or went, none while `changed` has never been
   * asked (nothing served can show a date no one has read); and those whose date added (`get`) moved since the last
   * run that read the history (an amend or a rebase of the commit that added them).
   */
  refresh(): Promise<string[]>
  /** Whether the last run found the folder in a git repository. */
  readonly inRepository: boolean
}

export function createCommitDates(dir: string): CommitDates {
  let dates = new Map<string, number>()
  let changes = new Map<string, number>()
  let inRepository = false
  /** Whether `changed` was ever asked: until then, no answer shows a commit date. */
  let read = false
  /** The history key (`git-head.ts`) when the log was last read. */
  let logged: string | undefined
  /** Whether a run has read the history: until then, `dates` is no history's. */
  let parsed = false
  let running: Promise<unknown> = Promise.resolve()
  const refresh = async (): Promise<string[]> => {
    // HEAD, and where a shallow clone's history is cut (a fetch that deepens it keeps HEAD): the log depends on
    // nothing else (replacements are not read), so while both are as they were at the last log (an edit not
    // yet committed), it is not run again. At 42,000 files the log was ~35 ms of git and 1.6 MB to read twice,
    // at every change of the store; this run is ~3 ms.
    const head = await historyKey(dir)
    if (head !== null && head.key === logged) return []
    const log = head === null ? null : await git(dir, LOG_ARGS)
    inRepository = log !== null
    logged = log === null ? undefined : head!.key
    const added = dates
    dates = log === null ? new Map() : parseLog(log, head!.shallow)
    if (log === null) return []
    const before = changes
    changes = parseChanges(log)
    const moved = new Set(read ? movedPaths(before, changes) : [])
    if (parsed) for (const path of movedPaths(added, dates)) moved.add(path)
    parsed = true
    return [...moved]
  }
  return {
    get: (path) => dates.get(path),
    changed: (path) => {
      read = true
      return changes.get(path)
    },
    get inRepository() {
      return inRepository
    },
    refresh() {
      const next = running.then(refresh)
      running = next.catch(() => {})
      return next
    },
  }
}

// One run over the whole folder, oldest commit first: every addition, rename and deletion of a file,
// with the commit's author date and parents. `--relative` gives paths relative to the folder, `-z`
// keeps odd file names intact, and the -c options keep a user's settings from changing the output.
const LOG_ARGS = [
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
 * What the log depends on, read from the repository's files; from `git rev-parse` where their layout is not read
 * there. Null outside a repository: no `.git` in or above the folder and no `GIT_DIR`, where git is not started at
 * all (a child process costs a big server 25–80 ms of its own thread, and the feeds ask at every change), or where
 * git cannot say.
 */
async function historyKey(dir: string): Promise<HistoryKey | null> {
  const read = await readHistoryKey(dir)
  if (read !== undefined) return read
  const said = await git(dir, ['rev-parse', '--is-shallow-repository', '--git-path', 'shallow', 'HEAD'])
  if (said === null) return null
  const [shallow, cutPath = '', head = ''] = said.split('\n')
  const cut = shallow === 'true' ? await readFile(resolve(dir, cutPath), 'utf8').catch(() => '') : null
  return toHistoryKey(head, cut)
}

/** Runs git in `dir` without a shell; null when git is missing, the folder is no repository, or it fails. */
function git(dir: string, args: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    const env = { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' }
    execFile(
      'git',
      args,
      { cwd: dir, env, timeout: GIT_TIMEOUT_MS, maxBuffer: GIT_MAX_OUTPUT, windowsHide: true },
      (error, stdout) => {
        resolve(error ? null : stdout)
      },
    )
  })
}

/** The paths whose date differs between two maps, or is in one only. */
function movedPaths(before: ReadonlyMap<string, number>, after: ReadonlyMap<string, number>): string[] {
  const moved = [...after].filter(([path, at]) => before.get(path) !== at).map(([path]) => path)
  for (const path of before.keys()) if (!after.has(path)) moved.push(path)
  return moved
}

/**
 * Reads the log into path → date of the last commit that added, changed or renamed it, as committed (a shallow
 * clone's oldest commit counts: its files are at least that recent).
 */
export function parseChanges(log: string): Map<string, number> {
  const changes = new Map<string, number>()
  for (const { header, entries } of commitsOf(log)) {
    // The committer's date: a rebase or a cherry-pick lands a change at the time it lands.
    const at = Number(header[2]) * 1000
    for (const [status = '', path = '', renamed = ''] of entries) {
      if (status.startsWith('R')) changes.delete(path)
      const target = status.startsWith('R') ? renamed : path
      if (status === 'D') changes.delete(target)
      else if (Number.isFinite(at)) changes.set(target, at)
    }
  }
  return changes
}

/**
 * Reads the log into path → date added. In a shallow clone the oldest commits have their parents
 * cut off, so every file looks added there: those dates are not the real ones and are left out.
 */
export function parseLog(log: string, shallow: boolean): Map<string, number> {
  const dates = new Map<string, number>()
  for (const { header, entries } of commitsOf(log)) {
    const [seconds = '', parents = ''] = header
    const at = Number(seconds) * 1000
    const cutOff = shallow && parents.trim() === ''
    for (const [status = '', path = '', renamed = ''] of entries) {
      if (status.startsWith('R')) {
        const added = dates.get(path)
        dates.delete(path)
        if (added !== undefined) dates.set(renamed, added)
      } else if (status === 'D' || cutOff || !Number.isFinite(at)) dates.delete(path)
      else if (status === 'A') dates.set(path, at)
    }
  }
  return dates
}

/** A commit of the log: its header's fields (author date, parents, committer date) and its changes. */
interface LogCommit {
  header: string[]
  /** Status and path; a rename's status, old path and new path. */
  entries: string[][]
}

/**
 * The commits of a `-z --name-status` log, read field by field: a header (`\x01` and its fields) where a status may
 * come, then each status with its one path, or two for a rename. A path is any text but NUL, `\x01` too: the log was
 * once cut at every `\x01`, and a file named `0\x01<seconds>…` gave the files after it in its commit a date of its
 * own choosing.
 */
function commitsOf(log: string): LogCommit[] {
  const fields = log.split('\0')
  const commits: LogCommit[] = []
  let current: LogCommit | undefined
  for (let i = 0; i < fields.length; ) {
    // The header ends with a newline before the first change.
    const field = fields[i++]!.replace(/^\n/, '')
    if (field.startsWith('\x01')) commits.push((current = { header: field.slice(1).split('\x02'), entries: [] }))
    else if (field !== '' && current) {
      const paths = field.startsWith('R') ? 2 : 1
      current.entries.push([field, ...fields.slice(i, i + paths)])
      i += paths
    }
  }
  return commits
}
