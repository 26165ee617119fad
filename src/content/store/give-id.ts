import { dateUndated } from './dating.ts'
import { NoIdLeftError, StaleFilesError } from './errors.ts'
import { isComplete } from '../files/front-matter.ts'
import { idSpaceOf, NAME_FIELD, type Kind } from '../model/kinds.ts'
import type { FileEntry } from '../model/record-types.ts'
import type { StoreState } from './state.ts'

/** How long a file's text must stay the same before the server adds an id line to it. */
const SETTLE_MS = 50

/** The opening fence of YAML front matter: `---` or `---yaml`, after a byte-order mark if there is one. */
const FENCE = /^(\uFEFF?---[ \t]*(?:ya?ml)?[ \t]*)(\r?\n)/i

/**
 * A source written by hand without `id` gets the next free id: that one line is added to the file.
 * Only a finished file: a complete front matter with a name, and (`settled`) the same text when
 * read again a moment later, so a file that git or an editor is still writing is never touched.
 */
export async function giveId(state: StoreState, kind: Kind, files: FileEntry[], settled = false): Promise<FileEntry[]> {
  if (!state.rules.assignIds || files.length === 0 || files.some((f) => f.data.id !== undefined)) return files
  // Only a default-language file becomes a source: a lone translation lacks its source, it is not one.
  const source = files.find((f) => f.lang === state.rules.defaultLanguage)
  const seen = source && state.texts.get(source.path)
  if (!source || !seen || !isComplete(seen) || source.data[NAME_FIELD[kind]] === undefined) return files
  if (settled) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS))
    if (state.driver.peek(source.path) !== seen) return files
  }
  let id: number
  try {
    id = state.ids.reserve(idSpaceOf(kind))
  } catch (error) {
    // No id is left: the file is told of and left as it is, never given an id the store would refuse.
    if (!(error instanceof NoIdLeftError)) throw error
    state.problems.report(source.path, [error.message])
    return files
  }
  const text = withId(seen, id)
  // An editor saving the file meanwhile keeps the save: the watcher hears it, and the next read gives the id.
  const saved = await state.driver.write(source.path, text, seen).then(
    () => true,
    (error) => {
      if (error instanceof StaleFilesError) return false
      throw error
    },
  )
  if (!saved) return files
  state.texts.set(source.path, text)
  state.rules.onIdGiven?.(source.path, id)
  const given = { ...source, data: { id, ...source.data } }
  await dateUndated(state, [given], false) // the file was written again: a new mtime, unless git dates it
  return files.map((f) => (f === source ? given : f))
}

/** Adds `id: N` as the first line of a file's front matter, changing nothing else. */
export function withId(text: string, id: number): string {
  if (FENCE.test(text)) return text.replace(FENCE, `$1$2id: ${id}$2`)
  return `---\nid: ${id}\n---\n${text}`
}
