import { assemble, warnUnknownKeys } from './assemble.ts'
import { isClash } from '../checks/clashes.ts'
import type { Kind } from '../model/kinds.ts'
import { type ContentRecord, type FileEntry, splitKey } from '../model/record-types.ts'
import { serveOccurrences } from './series.ts'
import type { StoreState } from './state.ts'

const NO_SOURCE = 'no file of this record has an id'

/**
 * Puts a record's files in place and tells the listeners: the one path of load, commit and reload.
 * Returns the record as it is served now, if it is.
 */
export function settle(state: StoreState, kind: Kind, stem: string, files: FileEntry[]): ContentRecord | undefined {
  const { catalogue, problems, clashes } = state
  const key = `${kind}/${stem}`
  const before = catalogue.record(key)
  catalogue.serve(key, undefined, clashes)
  // Clashes are found again as the record is assembled: a clash that is over is not listed.
  for (const file of files) problems.forget(file.path, isClash)
  catalogue.place(key, files)
  const after = files.length > 0 ? assemble(state, kind, stem, files) : undefined
  if (after) {
    // A record that assembles has no file without a source any more (git may add a source after its translations).
    for (const file of files)
      if (problems.of(file.path).some((p) => p.message.startsWith(NO_SOURCE))) problems.clear(file.path)
    catalogue.serve(key, after, clashes)
  }
  warnUnknownKeys(state, kind, files)
  const occurrences = kind === 'events' ? serveOccurrences(state, key, after) : []
  if (!before && !after) return undefined
  state.changes.tell(before, after)
  for (const [was, is] of occurrences) state.changes.tell(was, is)
  if (before) clashes.release(key)
  clashes.settleLosers()
  return after
}

/** Settles a record again from its files as they are (a clash it lost may be over). */
export function settleAgain(state: StoreState, key: string): void {
  const files = state.catalogue.filesOf(key)
  const [kind, stem] = splitKey(key)
  if (files.length > 0) settle(state, kind, stem, files)
}
