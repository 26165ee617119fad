import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { checkContent } from '../../src/content/check.ts'
import { parseFrontMatter } from '../../src/content/files/front-matter.ts'
import { stringifyFrontMatter } from '../../src/content/files/front-matter-write.ts'
import { KEY_ORDER } from '../../src/content/model/kinds.ts'
import { eventFile, loadStore, tempTree } from './trees.ts'

const HOSTILE: [name: string, id: number, extra: string, line: number][] = [
  ['proto-map', 901, '__proto__:\n  polluted: true\n  title: Inherited\n', 8],
  ['proto-flow', 902, 'extra: {"__proto__": {"polluted": true}}\n', 8],
  ['proto-nested', 903, 'extra:\n  a:\n    - __proto__: {polluted: true}\n', 10],
  ['constructor', 904, 'constructor: {prototype: {polluted: true}}\n', 8],
  ['prototype', 905, 'prototype: {polluted: true}\n', 8],
  ['quoted', 906, '"__proto__": {polluted: true}\n', 8],
]

let tree: Awaited<ReturnType<typeof tempTree>>
beforeEach(async () => {
  tree = await tempTree()
  for (const [name, id, extra] of HOSTILE)
    await writeFile(join(tree.content, `events/${name}.en.md`), eventFile(id, `Hostile ${id}`, extra))
})
afterEach(async () => {
  await tree.cleanup()
})

describe('front-matter keys that name a prototype', () => {
  it('are a problem on the line of the key, and the file is left out', async () => {
    const { store, problems } = await loadStore(tree.content)
    for (const [name, id, , line] of HOSTILE) {
      const path = `events/${name}.en.md`
      expect(store.get('events', id), path).toBeUndefined()
      expect(
        problems.filter((p) => p.path === path),
        path,
      ).toEqual([
        {
          path,
          line,
          message: expect.stringMatching(/^cannot be read: key "(__proto__|constructor|prototype)" is not allowed/),
        },
      ])
    }
    expect(store.get('events', 8)?.source.data.title).toBe('Plain Meetup')
  })

  it('never reach a prototype: no record inherits, no object is polluted', async () => {
    const { store } = await loadStore(tree.content)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.prototype).not.toHaveProperty('polluted')
    for (const kind of ['events', 'venues', 'organizers', 'categories', 'tags'] as const) {
      for (const record of store.list(kind)) {
        expect(Object.getPrototypeOf(record.source.data)).toBe(Object.prototype)
        expect(Object.keys(record.source.data)).not.toContain('__proto__')
      }
    }
  })

  it('make `almanac check` fail with the file and line', async () => {
    const { problems } = await checkContent(tree.content, false)
    for (const [name, , , line] of HOSTILE)
      expect(problems.find((p) => p.path === `events/${name}.en.md`)).toMatchObject({ line, severity: 'error' })
  })

  it('are never written by the server, so what it writes always reads back', () => {
    const data = JSON.parse(
      '{"id": 1, "title": "T", "__proto__": {"polluted": true}, "constructor": 1, "extra": {"prototype": 2, "kept": 3}}',
    ) as Record<string, unknown>
    const text = stringifyFrontMatter(data, '', KEY_ORDER.events)
    expect(text).toBe('---\nid: 1\ntitle: T\nextra:\n  kept: 3\n---\n')
    expect(parseFrontMatter(text).data).toEqual({ id: 1, title: 'T', extra: { kept: 3 } })
  })
})
