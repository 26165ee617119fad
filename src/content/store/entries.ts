import type { Lang } from '../../languages.ts'
import { parseFrontMatter } from '../files/front-matter.ts'
import { FrontMatterError } from '../files/yaml-data.ts'
import type { Kind } from '../model/kinds.ts'
import { normalize } from '../files/normalize.ts'
import type { FileEntry } from '../model/record-types.ts'
import type { StoreState } from './state.ts'

/** Parses one file into an entry; a file that cannot be parsed is reported and yields nothing. */
export function readEntry(state: StoreState, path: string, text: string, lang: Lang, mtime = 0): FileEntry | undefined {
  state.texts.set(path, text)
  const slash = path.indexOf('/')
  const kind = (slash === -1 ? path : path.slice(0, slash)) as Kind
  try {
    const { data, body, written } = parseFrontMatter(text)
    state.ids.claim(kind, data.id)
    // A file without a publication date is dated by its mtime, until git tells when it was added.
    const undated = data.date === undefined
    return {
      path,
      lang,
      data: normalize(data, written),
      body,
      undatedMs: undated ? mtime : 0,
      ...(undated ? { undatedBy: 'mtime' as const } : {}),
    }
  } catch (error) {
    state.ids.claim(kind, Number(/^id:[ \t]*(\d{1,15})[ \t]*$/m.exec(text)?.[1])) // an unreadable file may still name its id
    const line = error instanceof FrontMatterError ? error.line : undefined
    state.problems.report(path, [`cannot be read: ${(error as Error).message.split('\n')[0]}`], text, line)
    return undefined
  }
}

/** Groups entries by record, in path order, so the first file of a duplicate id wins. */
export function groupByRecord(entries: FileEntry[]): [Kind, string, FileEntry[]][] {
  const groups = new Map<string, FileEntry[]>()
  for (const entry of inPathOrder(entries)) {
    const key = recordKeyOf(entry.path)
    const group = groups.get(key)
    if (group) group.push(entry)
    else groups.set(key, [entry])
  }
  return [...groups].map(([key, files]) => {
    const [kind, stem] = key.split('/') as [Kind, string]
    return [kind, stem, files]
  })
}

/**
 * The entries in path order. A load reads each kind folder in name order, so they come as a few sorted
 * runs (one per kind): put in the order of their first paths, those are sorted already, and sorting
 * 42,000 paths again cost ~40 ms of a start. Anything else is sorted.
 */
function inPathOrder(entries: FileEntry[]): FileEntry[] {
  const runs: FileEntry[][] = []
  for (let i = 0; i < entries.length; i++) {
    if (i === 0 || entries[i - 1]!.path >= entries[i]!.path) runs.push([])
    runs.at(-1)!.push(entries[i]!)
  }
  const joined = runs.sort((a, b) => (a[0]!.path < b[0]!.path ? -1 : 1)).flat()
  for (let i = 1; i < joined.length; i++)
    if (joined[i - 1]!.path >= joined[i]!.path) return [...entries].sort((a, b) => (a.path < b.path ? -1 : 1))
  return joined
}

/** `events/party.ms.md` → `events/party`: the kind folder and the stem, up to the first dot after it. */
function recordKeyOf(path: string): string {
  const slash = path.indexOf('/')
  const dot = path.indexOf('.', slash + 1)
  return dot < 0 ? path : path.slice(0, dot)
}
