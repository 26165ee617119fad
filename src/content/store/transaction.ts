import type { Lang } from '../../languages.ts'
import { commitNow, writtenPath } from './commit.ts'
import type { Kind } from '../model/kinds.ts'
import type { ContentRecord, FileWrite } from '../model/record-types.ts'
import { settle } from './settle.ts'
import type { StoreState } from './state.ts'

/** What a transaction may do: take ids for new records, and commit records without waiting for itself. */
export interface Transaction {
  /**
   * Takes an id for a new record (docs/architecture.md §5): never handed out again, even before the
   * record is committed, nor when the transaction fails.
   */
  nextId(space: 'post' | 'term'): number
  commit(kind: Kind, stem: string, files: Partial<Record<Lang, FileWrite | null>>): Promise<ContentRecord | undefined>
}

/**
 * Runs a transaction all or nothing: when `work` fails at any point, every file it wrote is put
 * back byte for byte (new ones removed) and its records settle back as they were. The caller holds
 * the write queue.
 */
export async function transactionNow<T>(state: StoreState, work: (tx: Transaction) => Promise<T>): Promise<T> {
  const undo: (() => Promise<void>)[] = []
  const restoreIds = state.ids.checkpoint()
  const commit: Transaction['commit'] = async (kind, stem, files) => {
    undo.push(undoFor(state, kind, stem, Object.keys(files) as Lang[]))
    return commitNow(state, kind, stem, files)
  }
  try {
    return await work({ nextId: (space) => state.ids.reserve(space), commit })
  } catch (error) {
    for (const step of undo.reverse()) await step().catch(() => {})
    await restoreIds()
    throw error
  }
}

/**
 * What puts a record's files and its in-memory version back as they are now. A file goes back only if this
 * transaction wrote it and it still holds what was written: one the commit never wrote (it refused, 412, finding the
 * file edited on disk) or an editor changed since is left alone. The text put back is the store's, which the commit
 * checked the disk against before writing: a copy read from disk here could be an editor's save half done.
 */
function undoFor(state: StoreState, kind: Kind, stem: string, langs: Lang[]): () => Promise<void> {
  const { driver } = state
  const previous = state.catalogue.filesOf(`${kind}/${stem}`)
  const paths = new Set([
    ...previous.map((file) => file.path),
    ...langs.map((lang) => writtenPath(state, kind, stem, lang)),
  ])
  const saved = [...paths].map((path) => ({ path, text: state.texts.get(path) ?? null }))
  const folderIsNew = !driver.hasFolder(kind)
  // Every file is tried and the record always settles back: a file an editor saved meanwhile (refused, 412) or one
  // that cannot be written now stops neither the others nor the settle.
  return async () => {
    try {
      for (const { path, text } of saved) {
        const written = state.texts.get(path) ?? null
        if (written !== text && driver.peek(path) === written)
          await restoreText(state, path, text, written).catch(() => {})
      }
      if (folderIsNew) driver.removeFolder(kind)
    } finally {
      settle(state, kind, stem, previous)
    }
  }
}

/** Puts a file back as it was (its old text, or no file when there was none) if it still holds `written`. */
async function restoreText(
  state: StoreState,
  path: string,
  text: string | null,
  written: string | null,
): Promise<void> {
  if (text === null) {
    await state.driver.remove(path, written)
    state.texts.delete(path)
  } else {
    await state.driver.write(path, text, written)
    state.texts.set(path, text)
  }
}
