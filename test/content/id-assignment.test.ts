import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Store } from '../../src/content/store.ts'
import { loadStore, tempTree } from './trees.ts'

const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)

/** An event written by hand without an id; `broken` ends before it starts, so it is never served. */
const idless = (title: string, broken: boolean) =>
  `---\ntitle: ${title}\nslug: ${title.toLowerCase().replace(/ /g, '-')}\nstart_date: 2026-12-20 18:00:00\nend_date: 2026-12-${broken ? '19' : '20'} 20:00:00\n---\nAbout ${title}.\n`

/** Every `id:` line of every file of the tree, by path. */
async function idsOnDisk(content: string): Promise<Map<string, number>> {
  const ids = new Map<string, number>()
  for (const kind of ['events', 'venues', 'organizers']) {
    for (const name of await readdir(join(content, kind)).catch(() => [])) {
      const id = /^id: (\d+)$/m.exec(await readFile(join(content, kind, name), 'utf8'))?.[1]
      if (id) ids.set(`${kind}/${name}`, Number(id))
    }
  }
  return ids
}

const duplicates = (ids: Map<string, number>) => [...ids.values()].filter((id, i, all) => all.indexOf(id) !== i)

/** What a store serves: each record's kind, id and stem, and the files it blames. */
const served = (store: Store) => ({
  records: (['events', 'venues', 'organizers', 'categories', 'tags'] as const).flatMap((kind) =>
    store.list(kind).map((r) => `${kind}/${r.id}/${r.stem}`),
  ),
  blamed: [...new Set(store.problems().map((p) => p.path))].sort(),
})

describe('ids given to files written without one', () => {
  it('are never the same for two files read at start-up, when one of them is broken', async () => {
    const tree = await tempTree()
    try {
      await writeFile(join(tree.content, 'events/a-broken.en.md'), idless('A Broken', true))
      await writeFile(join(tree.content, 'events/b-good.en.md'), idless('B Good', false))
      const { store } = await loadStore(tree.content, true)
      expect(duplicates(await idsOnDisk(tree.content))).toEqual([])
      const good = store.list('events').find((r) => r.stem === 'b-good')!
      const { store: restarted } = await loadStore(tree.content, true)
      expect(restarted.get('events', good.id)?.stem).toBe('b-good')
    } finally {
      await tree.cleanup()
    }
  })

  it('are never the same for two files of one watcher batch, when one of them is broken', async () => {
    const tree = await tempTree()
    try {
      const { store } = await loadStore(tree.content, true)
      await writeFile(join(tree.content, 'events/a-broken.en.md'), idless('A Broken', true))
      await writeFile(join(tree.content, 'events/b-good.en.md'), idless('B Good', false))
      await store.reload(['events/a-broken.en.md', 'events/b-good.en.md'])
      expect(duplicates(await idsOnDisk(tree.content))).toEqual([])
      const { store: restarted } = await loadStore(tree.content, true)
      expect(served(restarted)).toEqual(served(store))
    } finally {
      await tree.cleanup()
    }
  })

  it('property: random batches of new files, some without ids, some broken, some reusing an id or a slug, never get a used id, and a restart serves what was running', async () => {
    // A file of the batch: without an id (good, broken or unreadable), or naming an id (maybe one in use).
    const newFile = fc.record({
      id: fc.option(fc.constantFrom(7, 8, 30, 31), { nil: null, freq: 2 }),
      shape: fc.constantFrom('good', 'good', 'broken', 'unreadable', 'slug-in-use'),
    })
    const batch = fc.array(newFile, { minLength: 1, maxLength: 5 })
    await fc.assert(
      fc.asyncProperty(batch, fc.boolean(), async (files, atStartUp) => {
        const tree = await tempTree()
        try {
          const name = (i: number) => `events/${i % 2 ? 'a' : 'z'}-new-${i}.en.md`
          const text = (f: (typeof files)[number], i: number) => {
            if (f.shape === 'unreadable') return `---\n${f.id ? `id: ${f.id}\n` : ''}title: [New ${i}\n---\n`
            const named = idless(`New ${i}`, f.shape === 'broken')
            const file = f.shape === 'slug-in-use' ? named.replace(/slug: .*/, 'slug: plain-meetup') : named
            return f.id ? file.replace('---\n', `---\nid: ${f.id}\n`) : file
          }
          const write = () => Promise.all(files.map((f, i) => writeFile(join(tree.content, name(i)), text(f, i))))
          const before = await idsOnDisk(tree.content)
          if (atStartUp) await write()
          const { store } = await loadStore(tree.content, true)
          if (!atStartUp) {
            await write()
            await store.reload(files.map((_, i) => name(i)))
          }
          const after = await idsOnDisk(tree.content)
          const given = files.flatMap((f, i) => (f.id === null && after.has(name(i)) ? [after.get(name(i))!] : []))
          const named = [...before.values(), ...files.flatMap((f) => (f.id === null ? [] : [f.id]))]
          expect(duplicates(new Map(given.map((id, i) => [String(i), id])))).toEqual([])
          expect(given.filter((id) => named.includes(id))).toEqual([])
          const { store: restarted } = await loadStore(tree.content, true)
          expect(served(restarted)).toEqual(served(store))
        } finally {
          await tree.cleanup()
        }
      }),
      { numRuns: 15, seed },
    )
  }, 60_000)
})
