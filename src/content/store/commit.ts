import type { Lang } from '../../languages.ts'
import { sourceProblems } from './assemble.ts'
import { dateUndated } from './dating.ts'
import { MAX_FRONT_MATTER, parseFrontMatter, splitFile } from '../files/front-matter.ts'
import { stringifyFrontMatter, updateFrontMatter } from '../files/front-matter-write.ts'
import { KEY_ORDER, type Kind } from '../model/kinds.ts'
import { normalize } from '../files/normalize.ts'
import { contentPath, STEM } from '../files/paths.ts'
import type { ContentRecord, FileEntry, FileWrite } from '../model/record-types.ts'
import { settle } from './settle.ts'
import { CommitError, FrontMatterTooLargeError, StaleFilesError } from './errors.ts'
import type { StoreState } from './state.ts'

/** The files of one commit: null removes one. */
export type CommitFiles = Partial<Record<Lang, FileWrite | null>>

/** Writes a record's files and settles it; the caller holds the write queue. */
export async function commitNow(
  state: StoreState,
  kind: Kind,
  stem: string,
  files: CommitFiles,
): Promise<ContentRecord | undefined> {
  if (!STEM.test(stem)) throw new CommitError(`"${stem}" is not a file stem`)
  if (state.driver.isLink(kind)) throw new CommitError(`${kind}/ is a symbolic link; nothing is written through it`)
  const key = `${kind}/${stem}`
  refuseIfChangedOnDisk(state, kind, stem, Object.keys(files) as Lang[])
  const next = new Map(state.catalogue.filesOf(key).map((file) => [file.path, file]))
  const writes = planWrites(state, kind, stem, files, next)
  const { issues } = sourceProblems(state, kind, [...next.values()])
  if (issues.length > 0) throw new CommitError(`${key}: ${issues.join('; ')}`)
  // Each file is checked again just before it is replaced: an editor's save since the check above is refused (412)
  // rather than overwritten, and the transaction puts back what it wrote before it.
  for (const { path, text } of writes) {
    const planned = state.texts.get(path) ?? null
    if (text === null) await state.driver.remove(path, planned)
    else await state.driver.write(path, text, planned)
    if (text === null) state.texts.delete(path)
    else state.texts.set(path, text)
  }
  const written = writes.flatMap(({ path, text }) => (text === null ? [] : [next.get(path)!]))
  await dateUndated(state, written, false)
  const before = state.catalogue.record(key)
  const after = settle(state, kind, stem, [...next.values()])
  if (before && !after) await state.ids.retire(before.kind, before.id)
  return after
}

/**
 * The file a write of a record's language goes to: the one the record is read from in that language (a source may
 * be `<stem>.md`, the default language's without a suffix), else the first of that language in path order, else
 * `<stem>.<lang>.md` for a new one.
 */
export function writtenPath(state: StoreState, kind: Kind, stem: string, lang: Lang): string {
  const key = `${kind}/${stem}`
  const used = state.catalogue.record(key)?.files.get(lang)?.path
  if (used) return used
  const same = state.catalogue
    .filesOf(key)
    .filter((file) => file.lang === lang)
    .map((file) => file.path)
  return same.sort()[0] ?? contentPath(kind, stem, lang)
}

/** The text of each file to write (null: remove it), with `next` changed to the files as a restart would read them. */
function planWrites(state: StoreState, kind: Kind, stem: string, files: CommitFiles, next: Map<string, FileEntry>) {
  const writes: { path: string; text: string | null }[] = []
  for (const [lang, file] of Object.entries(files) as [Lang, FileWrite | null][]) {
    const path = writtenPath(state, kind, stem, lang)
    // A language removed goes with every file of it: a second one (`c.md` beside `c.en.md`) would be read after.
    if (!file)
      for (const other of state.catalogue.filesOf(`${kind}/${stem}`))
        if (other.lang === lang && other.path !== path) {
          writes.push({ path: other.path, text: null })
          next.delete(other.path)
        }
    const previous = state.texts.get(path)
    // An update keeps every line the write did not change as the editor wrote it; a new file is written afresh.
    const text = !file
      ? null
      : previous === undefined
        ? stringifyFrontMatter(file.data, file.body, KEY_ORDER[kind])
        : updateFrontMatter(previous, file.data, file.body, KEY_ORDER[kind], normalize)
    // A file the store would refuse to read back must not be written: the record would be lost at the next reload.
    if (text !== null && (splitFile(text)?.block.length ?? 0) > MAX_FRONT_MATTER)
      throw new FrontMatterTooLargeError(path, MAX_FRONT_MATTER)
    writes.push({ path, text })
    if (text === null) next.delete(path)
    else {
      const { data, body, written } = parseFrontMatter(text) // read back as a restart would read it
      const undated = data.date === undefined ? { undatedBy: 'mtime' as const } : {}
      next.set(path, { path, lang, data: normalize(data, written), body, undatedMs: 0, ...undated })
    }
  }
  return writes
}

/**
 * A write is planned from the record as the store knows it. If one of its files changed on disk
 * since (an editor, a `git pull` the watcher has not reported yet), writing would put the old
 * text back over the edit: the write is refused with 412 (and the files are read again, see
 * `readingStale`) so that the client sends it again over what is on disk now.
 */
function refuseIfChangedOnDisk(state: StoreState, kind: Kind, stem: string, langs: Lang[]): void {
  const paths = new Set([
    ...state.catalogue.filesOf(`${kind}/${stem}`).map((file) => file.path),
    ...langs.map((lang) => writtenPath(state, kind, stem, lang)),
  ])
  const changed = [...paths].filter((path) => {
    try {
      return state.driver.peek(path) !== (state.texts.get(path) ?? null)
    } catch {
      return true
    }
  })
  if (changed.length > 0) throw new StaleFilesError(changed)
}

/** Runs a commit; files found changed on disk are read again once the write is undone. */
export async function readingStale<T>(
  reload: (paths: string[]) => Promise<unknown>,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof StaleFilesError) await reload(error.paths)
    throw error
  }
}
