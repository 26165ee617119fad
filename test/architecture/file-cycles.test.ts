import { readFileSync } from 'node:fs'
import { dirname, relative, resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sourceFiles, specifiers } from './imports.ts'

// Between folders there is no cycle (folder-cycles.test.ts); within the content layer neither: no file
// of src/content/ imports one that imports it back, however long the way round (a re-export counts).

const SRC = resolve(import.meta.dirname, '../../src')
const CONTENT = resolve(SRC, 'content')

/** From each file (relative to src/) to the files it imports. */
function fileGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const file of sourceFiles(root)) {
    const targets = specifiers(readFileSync(file, 'utf8'))
      .map((spec) => resolve(dirname(file), spec))
      .filter((target) => target.startsWith(root + sep))
    graph.set(
      relative(root, file),
      targets.map((target) => relative(root, target)),
    )
  }
  return graph
}

/** The groups of two or more nodes that reach one another (Tarjan's strongly connected components). */
function tangles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const found: string[][] = []
  const visit = (node: string): void => {
    index.set(node, index.size)
    low.set(node, index.get(node)!)
    stack.push(node)
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) visit(next)
      if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, low.get(next)!))
    }
    if (low.get(node) !== index.get(node)) return
    const group = stack.splice(stack.indexOf(node))
    if (group.length > 1) found.push(group.sort())
  }
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node)
  return found
}

describe('files of src/content/', () => {
  it('finds files that import one another, however long the way round', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts', 'd.ts']],
      ['d.ts', []],
    ])
    expect(tangles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']])
  })

  it('has no import cycle between files', () => {
    const found = tangles(fileGraph(CONTENT)).map((group) => group.join(' ⇄ '))
    expect(found, `files of src/content/ that import one another:\n${found.join('\n')}`).toEqual([])
  })
})
