import { readFileSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { partGraph, sourceFiles } from './imports.ts'

// The layers of src/, top to bottom, as docs/architecture.md §1 draws them; content/ is split into its
// own (its door, store.ts, on top; the records' model at the bottom). A part (a folder, or a
// file directly in src/) imports only parts of the layers below its own, never one beside or above:
// routes may use http and write, http may not use routes, query and write may not use each other.
// A new folder or top-level file must be given its place here, which is the point: its author
// decides where it sits.
const LAYERS: string[][] = [
  ['cli'],
  ['prerender'],
  ['app'],
  ['routes'],
  ['http'],
  ['query', 'write'],
  ['serialize', 'args'],
  ['context'],
  ['auth'],
  ['content'],
  ['content/store'],
  ['content/checks'],
  ['content/files', 'content/schema'],
  ['content/model'],
  ['config'],
  ['config-file'],
  ['disk', 'errors', 'languages', 'namespace', 'suggest', 'text', 'time', 'yaml-lines'],
]

/** Lines a file of src/ may have: past this, it holds more than one thing (docs/architecture.md §1). */
const MAX_LINES = 250

const SRC = resolve(import.meta.dirname, '../../src')
/** Folders whose subfolders are layers of their own (listed above as `content/store`…). */
const SPLIT = ['content']
const rank = new Map(LAYERS.flatMap((layer, index) => layer.map((part) => [part, index] as const)))

describe('the layers of src/', () => {
  const graph = partGraph(SRC, SPLIT)

  it('places every folder and top-level file of src/ in a layer, and lists none that is gone', () => {
    expect([...graph.keys()].sort()).toEqual([...rank.keys()].sort())
  })

  it('imports only downwards: every import goes to a layer below its own', () => {
    const upward = [...graph].flatMap(([from, targets]) =>
      [...targets]
        .filter(([to]) => (rank.get(to) ?? -1) <= (rank.get(from) ?? -1))
        .flatMap(([to, why]) => why.map((line) => `${from} → ${to}: ${line}`)),
    )
    expect(upward, `imports against the layers:\n${upward.join('\n')}`).toEqual([])
  })

  it('sees the edges it is meant to check (app composes routes, routes use the store)', () => {
    expect(graph.get('app')?.has('routes')).toBe(true)
    expect(graph.get('routes')?.has('content')).toBe(true)
  })

  it(`keeps every file of src/ under ${MAX_LINES} lines`, () => {
    const long = sourceFiles(SRC)
      .map((file) => ({ file: relative(SRC, file), lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`)
    expect(long).toEqual([])
  })
})
