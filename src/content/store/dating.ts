import { isTermKind, type Kind } from '../model/kinds.ts'
import { parseContentPath } from '../files/paths.ts'
import { type FileEntry, splitKey } from '../model/record-types.ts'
import { settle } from './settle.ts'
import type { StoreState } from './state.ts'

/** When to ask git again about a file the watcher read before git could date it. */
const REDATE_MS = [500, 3_000] as const

/** What dating found: the paths git could not date, and those whose last commit moved as git was asked again. */
export interface Dated {
  unknown: string[]
  moved: string[]
}

/**
 * Dates the source files among `files` that have no `date`: by the commit that added them, so the
 * answer is the same on every clone; a file git does not know keeps its mtime. Git is asked once
 * for the whole folder, and again (`ask`) only when such a file turns up that it did not know.
 * Files just written by the store (`ask` false) get the mtime of that write. Returns the paths git
 * could not date (none outside a repository), and the paths whose last commit that asking moved: their dates are
 * served (feeds' SEQUENCE, LAST-MODIFIED), so the caller settles their records again (`touchCommitted`) once its own
 * are settled, as `askGit` would, which will find nothing new for them later.
 */
export async function dateUndated(state: StoreState, files: FileEntry[], ask: boolean): Promise<Dated> {
  const { dates } = state.driver
  const undated = files.filter((f) => datedByGit(state, f))
  if (undated.length === 0) return { unknown: [], moved: [] }
  const moved = ask && undated.some((f) => dates.get(f.path) === undefined) ? await dates.refresh() : []
  const unknown: string[] = []
  for (const file of undated) {
    const added = dates.get(file.path)
    if (added !== undefined) Object.assign(file, { undatedMs: added, undatedBy: 'git' })
    else if (!ask)
      Object.assign(file, { undatedMs: state.driver.mtimeOf(file.path) || file.undatedMs, undatedBy: 'mtime' })
    if (added === undefined) unknown.push(file.path)
  }
  return { unknown: dates.inRepository ? unknown : [], moved }
}

/** Whether a file takes its date from git (or its mtime): a source without `date`, of a kind that shows one. */
export function datedByGit(state: StoreState, file: FileEntry): boolean {
  return (
    file.undatedBy !== undefined &&
    !isTermKind(file.path.split('/')[0] as Kind) &&
    (file.data.id !== undefined || file.lang === state.rules.defaultLanguage)
  )
}

/** How many records `touchCommitted` settles between two turns of the event loop. */
const TOUCH_BATCH = 200

/**
 * Settles again the served records of files whose dates in git moved (a commit, an amend, a checkout that left
 * their text as it was), but for those in `settled`, just made anew; a file without `date` takes the date git now
 * says it was added, as a restart would give it. Each becomes a new record object, so what shows the commit's date
 * (its feed lines' SEQUENCE, DTSTAMP and LAST-MODIFIED, and those of events that link a venue or organizer whose
 * commit moved) is made again for it, and a build following the store renders again what the record's change
 * touches, where a change of the store's version that told of no record had every kept answer made again and every
 * file built again. Categories and tags show no commit date, and are left alone. The caller holds the write queue;
 * the event loop is let go every TOUCH_BATCH records (a rebase of a whole tree settles every record).
 */
export async function touchCommitted(
  state: StoreState,
  paths: readonly string[],
  settled: ReadonlySet<string> = NONE,
): Promise<void> {
  const { catalogue, driver } = state
  const keys = new Set<string>()
  for (const path of paths) {
    const address = parseContentPath(path, state.rules.defaultLanguage)
    if (typeof address === 'string' || isTermKind(address.kind)) continue
    const key = `${address.kind}/${address.stem}`
    if (!settled.has(key) && catalogue.record(key)) keys.add(key)
  }
  let done = 0
  for (const key of keys) {
    if (done++ > 0 && done % TOUCH_BATCH === 0) await new Promise((resolve) => setImmediate(resolve))
    // The queue is held, but a settle above may have taken this record out of service (a slug clash it now loses).
    if (!catalogue.record(key)) continue
    const files = catalogue.filesOf(key).map((file) => {
      const added = driver.dates.get(file.path)
      return datedByGit(state, file) && added !== undefined && (file.undatedBy !== 'git' || file.undatedMs !== added)
        ? gitDated(file, added)
        : file
    })
    const [kind, stem] = splitKey(key)
    settle(state, kind, stem, files)
  }
}

const NONE: ReadonlySet<string> = new Set()

/** A file without `date`, dated by the commit git says added it. */
function gitDated(file: FileEntry, added: number): FileEntry {
  return { ...file, undatedMs: added, undatedBy: 'git' }
}

/**
 * Git moves HEAD only after it has written the files of a checkout or a pull, so the watcher may
 * read a new file before git can date it: such files are asked about again a little later, and
 * their records settled again with the date a restart would give them.
 */
export function redateLater(state: StoreState, paths: string[], delays: readonly number[] = REDATE_MS): void {
  if (paths.length === 0 || delays.length === 0) return
  const again = () => state.queue(() => redateNow(state, paths, delays.slice(1)))
  setTimeout(() => void again().catch(() => {}), delays[0]).unref()
}

async function redateNow(state: StoreState, paths: string[], later: readonly number[]): Promise<void> {
  const { catalogue, driver } = state
  const moved = await driver.dates.refresh()
  const settled = new Set<string>()
  const unknown = paths.filter(
    (path) => catalogue.entry(path)?.undatedBy === 'mtime' && driver.dates.get(path) === undefined,
  )
  for (const path of paths) {
    const entry = catalogue.entry(path)
    const added = driver.dates.get(path)
    const address = parseContentPath(path, state.rules.defaultLanguage)
    if (entry?.undatedBy !== 'mtime' || added === undefined || typeof address === 'string') continue
    const files = catalogue
      .filesOf(`${address.kind}/${address.stem}`)
      .map((file) => (file.path === path ? gitDated(entry, added) : file))
    settle(state, address.kind, address.stem, files)
    settled.add(`${address.kind}/${address.stem}`)
  }
  await touchCommitted(state, moved, settled)
  redateLater(state, unknown, later)
}
