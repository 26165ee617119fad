import { isTermKind, type Kind } from '../model/kinds.ts'
import { parseContentPath } from '../files/paths.ts'
import type { FileEntry } from '../model/record-types.ts'
import { settle } from './settle.ts'
import type { StoreState } from './state.ts'

/** When to ask git again about a file the watcher read before git could date it. */
const REDATE_MS = [500, 3_000] as const

/**
 * Dates the source files among `files` that have no `date`: by the commit that added them, so the
 * answer is the same on every clone; a file git does not know keeps its mtime. Git is asked once
 * for the whole folder, and again (`ask`) only when such a file turns up that it did not know.
 * Files just written by the store (`ask` false) get the mtime of that write. Returns the paths git
 * could not date (none outside a repository).
 */
export async function dateUndated(state: StoreState, files: FileEntry[], ask: boolean): Promise<string[]> {
  const { dates } = state.driver
  const undated = files.filter(
    (f) =>
      f.undatedBy !== undefined &&
      !isTermKind(f.path.split('/')[0] as Kind) &&
      (f.data.id !== undefined || f.lang === state.rules.defaultLanguage),
  )
  if (undated.length === 0) return []
  // A refresh may also find commits made since git was last asked: their dates are served (feeds' SEQUENCE,
  // LAST-MODIFIED), so it moves the version as `askGit` does, which will find nothing new to move it for later.
  if (ask && undated.some((f) => dates.get(f.path) === undefined) && (await dates.refresh())) state.changes.bump()
  const unknown: string[] = []
  for (const file of undated) {
    const added = dates.get(file.path)
    if (added !== undefined) Object.assign(file, { undatedMs: added, undatedBy: 'git' })
    else if (!ask)
      Object.assign(file, { undatedMs: state.driver.mtimeOf(file.path) || file.undatedMs, undatedBy: 'mtime' })
    if (added === undefined) unknown.push(file.path)
  }
  return dates.inRepository ? unknown : []
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
  if (await driver.dates.refresh()) state.changes.bump()
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
      .map((file) => (file.path === path ? { ...entry, undatedMs: added, undatedBy: 'git' as const } : file))
    settle(state, address.kind, address.stem, files)
  }
  redateLater(state, unknown, later)
}
