import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'

// How the structure tests read imports. Every relative import counts: static imports and re-exports,
// `import()` with a literal, and type-only imports too, since a type import ties a folder to another's
// shapes as much as a value import does (and is how a cycle hides until the next refactor turns it
// into a value).

/** A static import or re-export at the start of a line (so commented-out code does not count). */
const STATIC = /^\s*(?:import|export)\s[^;'"]*?\sfrom\s+['"](\.{1,2}\/[^'"]+)['"]/gm
/** A side-effect import at the start of a line: `import './x.ts'`. */
const BARE = /^\s*import\s+['"](\.{1,2}\/[^'"]+)['"]/gm
/** A dynamic import with a literal specifier. */
const DYNAMIC = /\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g

/** From each part to each part it imports, with the imports that make the edge. */
export type Graph = Map<string, Map<string, string[]>>

/** The source files under a folder, at any depth. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(ts|mts|mjs|js)$/.test(name))
    .map((name) => join(dir, name))
}

/** Every relative specifier a source text imports. */
export function specifiers(text: string): string[] {
  return [STATIC, BARE, DYNAMIC].flatMap((pattern) => [...text.matchAll(pattern)].map((match) => match[1] ?? ''))
}

/**
 * The part of `root` a path belongs to: its top-level folder, or its own name without extension. A
 * folder named in `split` is several parts: its own files one (`content`), each subfolder another
 * (`content/store`), so the layers inside it are checked too.
 */
export function partOf(root: string, path: string, split: readonly string[] = []): string {
  const [first = '', ...rest] = relative(root, path).split(sep)
  if (rest.length > 1 && split.includes(first)) return `${first}/${rest[0]}`
  return rest.length > 0 ? first : first.replace(/\.[^.]+$/, '')
}

export function addEdge(graph: Graph, from: string, to: string, why: string): void {
  const targets = graph.get(from) ?? new Map<string, string[]>()
  graph.set(from, targets)
  targets.set(to, [...(targets.get(to) ?? []), why])
}

/** The graph between the parts of `root` (its folders and top-level files), each edge with its imports. */
export function partGraph(root: string, split: readonly string[] = []): Graph {
  const graph: Graph = new Map()
  for (const file of sourceFiles(root)) {
    graph.set(partOf(root, file, split), graph.get(partOf(root, file, split)) ?? new Map())
    for (const spec of specifiers(readFileSync(file, 'utf8'))) {
      const target = resolve(dirname(file), spec)
      if (!target.startsWith(root + sep)) continue
      const from = partOf(root, file, split)
      const to = partOf(root, target, split)
      if (from !== to) addEdge(graph, from, to, `${relative(root, file)} imports ${spec}`)
    }
  }
  return graph
}
