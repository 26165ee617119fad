import { dateUndated } from './dating.ts'
import { groupByRecord, readEntry } from './entries.ts'
import { giveId } from './give-id.ts'
import { KINDS } from '../model/kinds.ts'
import type { MediaLibrary } from './media.ts'
import { isRecordFileName, parseContentPath } from '../files/paths.ts'
import type { FileEntry } from '../model/record-types.ts'
import { settle } from './settle.ts'
import type { StoreState } from './state.ts'

/**
 * Reads the whole tree into the store: every record file, then the media library, then the
 * records, those with an id first (a file without one must not be handed an id a later file holds).
 */
export async function loadTree(state: StoreState): Promise<void> {
  const loaded = KINDS.flatMap((kind) => readKindFolder(state, kind))
  await dateUndated(state, loaded, true)
  state.media = await state.driver.media()
  reportMedia(state, state.media)
  const groups = groupByRecord(loaded)
  const hasId = (files: FileEntry[]) => files.some((f) => f.data.id !== undefined)
  for (const [kind, stem, files] of groups) if (hasId(files)) settle(state, kind, stem, files)
  for (const [kind, stem, files] of groups)
    if (!hasId(files)) settle(state, kind, stem, await giveId(state, kind, files))
}

/** The problem of a kind folder that is a link: none of its files is read (they could be anywhere on the disk). */
export const LINKED_KIND_FOLDER = 'is a symbolic link: a kind folder must be a folder of the tree, so it is not read'

// Synchronous reads: measured here on 42,000 files, readFileSync took 0.4–0.5 s where fs/promises
// or a pipeline of callback reads on the thread pool took 0.8–2.7 s. Loading happens once, before listening.
function readKindFolder(state: StoreState, kind: string): FileEntry[] {
  const { driver, problems } = state
  if (driver.isLink(kind)) {
    problems.report(kind, [LINKED_KIND_FOLDER], undefined, 1)
    return []
  }
  const loaded: FileEntry[] = []
  for (const name of driver.list(kind) ?? []) {
    if (!isRecordFileName(name)) continue
    const path = `${kind}/${name}`
    const address = parseContentPath(path, state.rules.defaultLanguage)
    if (typeof address === 'string') {
      problems.report(path, [address])
      continue
    }
    const read = driver.read(path, true)
    if (read && 'refused' in read) problems.report(path, [read.refused], undefined, 1)
    const entry =
      read && !('refused' in read) ? readEntry(state, path, read.text, address.lang, read.mtimeMs) : undefined
    if (entry) loaded.push(entry)
  }
  return loaded
}

/** Media files the library refuses (links, files outside media/) are problems of the tree. */
export function reportMedia(state: StoreState, library: MediaLibrary): void {
  for (const file of library.refused()) state.problems.report(`media/${file.file}`, [file.reason], undefined, 1)
}
