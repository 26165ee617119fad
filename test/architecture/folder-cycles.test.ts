import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { addEdge, type Graph, partGraph, specifiers } from './imports.ts'

// The folders of src/ form layers (docs/architecture.md §1): no folder may depend on another that
// depends back on it, however long the way round, counting every relative import (./imports.ts says
// which). layers.test.ts checks the order of the layers; this test names a cycle when there is one,
// which is easier to act on. A file directly in src/ (app.ts, errors.ts, config.ts, …) is a
// node of its own: they sit at different layers (app.ts on top, errors.ts at the bottom).

const SRC = resolve(import.meta.dirname, '../../src')

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
  const graph = partGraph(SRC, ['content'])

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
