import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'

// The folders of src/ form layers (docs/architecture.md §1): no folder may depend on another that
// depends back on it, however long the way round. Every relative import counts: static imports and
// re-exports, `import()` with a literal, and type-only imports too, since a type import ties a folder
// to another's shapes as much as a value import does (and is how a cycle hides until the next
// refactor turns it into a value). A file directly in src/ (app.ts, errors.ts, config.ts, …) is a
// node of its own: they sit at different layers (app.ts on top, errors.ts at the bottom).

const SRC = resolve(import.meta.dirname, '../../src')
/** A static import or re-export at the start of a line (so commented-out code does not count). */
const STATIC = /^\s*(?:import|export)\s[^;'"]*?\sfrom\s+['"](\.{1,2}\/[^'"]+)['"]/gm
/** A side-effect import at the start of a line: `import './x.ts'`. */
const BARE = /^\s*import\s+['"](\.{1,2}\/[^'"]+)['"]/gm
/** A dynamic import with a literal specifier. */
const DYNAMIC = /\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g

type Graph = Map<string, Map<string, string[]>>

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(ts|mts|mjs|js)$/.test(name))
    .map((name) => join(dir, name))
}

/** The node a file of src/ belongs to: its top-level folder, or its own name without extension. */
function nodeOf(path: string): string {
  const [first = '', ...rest] = relative(SRC, path).split(sep)
  return rest.length > 0 ? first : first.replace(/\.[^.]+$/, '')
}

/** Every relative specifier a source text imports. */
function specifiers(text: string): string[] {
  return [STATIC, BARE, DYNAMIC].flatMap((pattern) => [...text.matchAll(pattern)].map((match) => match[1] ?? ''))
}

function addEdge(graph: Graph, from: string, to: string, why: string): void {
  const targets = graph.get(from) ?? new Map<string, string[]>()
  graph.set(from, targets)
  targets.set(to, [...(targets.get(to) ?? []), why])
}

/** The graph between the nodes of src/, each edge with the imports that make it. */
function folderGraph(): Graph {
  const graph: Graph = new Map()
  for (const file of sourceFiles(SRC)) {
    for (const spec of specifiers(readFileSync(file, 'utf8'))) {
      const target = resolve(dirname(file), spec)
      if (!target.startsWith(SRC + sep)) continue
      const from = nodeOf(file)
      const to = nodeOf(target)
      if (from !== to) addEdge(graph, from, to, `${relative(SRC, file)} imports ${spec}`)
    }
  }
  return graph
}

/** Every elementary cycle, each listed once, starting at its smallest node. */
function cycles(graph: Graph): string[][] {
  const found: string[][] = []
  const nodes = [...graph.keys()].sort()
  const walk = (start: string, path: string[]): void => {
    for (const next of [...(graph.get(path.at(-1)!)?.keys() ?? [])].sort()) {
      if (next === start) found.push([...path, start])
      else if (next > start && !path.includes(next)) walk(start, [...path, next])
    }
  }
  for (const start of nodes) walk(start, [start])
  return found
}

function describeCycle(graph: Graph, cycle: string[]): string {
  const steps = cycle.slice(1).map((to, i) => {
    const from = cycle[i] ?? ''
    return `    ${from} → ${to}: ${graph.get(from)?.get(to)?.join('; ')}`
  })
  return [cycle.join(' → '), ...steps].join('\n')
}

describe('folders of src/ form layers', () => {
  const graph = folderGraph()

  it('reads the imports of every kind it promises to count', () => {
    const text = [
      "import { a } from './a.ts'",
      "import type { B } from '../b/b.ts'",
      "export { c } from './c.ts'",
      'import {\n  d,\n  e,\n} from "../d.ts"',
      "import './side.ts'",
      "const m = await import('../m/m.ts')",
      "// import { no } from '../commented.ts'",
      "import { pkg } from 'node:path'",
    ].join('\n')
    expect(specifiers(text).sort()).toEqual(['../b/b.ts', '../d.ts', '../m/m.ts', './a.ts', './c.ts', './side.ts'])
  })

  it('finds every cycle of a graph, each once', () => {
    const graph: Graph = new Map()
    const edges: [string, string][] = [
      ['a', 'b'],
      ['b', 'a'],
      ['b', 'c'],
      ['c', 'a'],
      ['c', 'd'],
    ]
    for (const [from, to] of edges) addEdge(graph, from, to, '')
    expect(cycles(graph)).toEqual([
      ['a', 'b', 'a'],
      ['a', 'b', 'c', 'a'],
    ])
  })

  it('sees the layers it is meant to check (cli depends on app, routes on content)', () => {
    expect(graph.get('cli')?.has('app')).toBe(true)
    expect(graph.get('routes')?.has('content')).toBe(true)
  })

  it('has no import cycle between folders', () => {
    const found = cycles(graph).map((cycle) => describeCycle(graph, cycle))
    expect(found, `import cycles between folders of src/:\n${found.join('\n')}`).toEqual([])
  })
})
