import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { KINDS } from '../../src/content/model/kinds.ts'
import { createMemoryDriver, type MemoryDriver } from '../../src/content/store/memory-driver.ts'
import { createStore, type Store } from '../../src/content/store.ts'
import { watchContent } from '../../src/content/watch.ts'
import { FIXTURES } from '../helpers.ts'
import { referenceFiles } from './trees.ts'

// The store over the in-memory driver: the same store code as over the disk, so the driver is a
// real seam. Every store here is the real createStore.

const REFERENCE = join(FIXTURES, 'reference', 'content')
const OPTIONS = { defaultLanguage: 'en', fallback: true } as const

/** What a store serves, kind by kind, in every language: ids, files and fields (dates by mtime left out). */
function served(store: Store) {
  return KINDS.flatMap((kind) =>
    store.list(kind).map((record) => ({
      kind,
      id: record.id,
      stem: record.stem,
      files: [...record.files.values()].map((file) => file.path),
      fields: (['en', 'ms', 'zh-hans', 'ta'] as const).map((lang) => store.fieldsIn(record, lang)),
    })),
  )
}

async function memoryStore(): Promise<{ driver: MemoryDriver; store: Store }> {
  const driver = createMemoryDriver(await referenceFiles())
  return { driver, store: await createStore(driver, OPTIONS) }
}

const NIGHT_MARKET = {
  title: 'Night Market',
  slug: 'night-market',
  start_date: '2027-01-01 18:00:00',
  end_date: '2027-01-01 23:00:00',
}

describe('the store over the memory driver', () => {
  it('serves the reference tree exactly as the store over the disk does, problems included', async () => {
    const { store } = await memoryStore()
    const disk = await createStore(REFERENCE, OPTIONS)
    expect(served(store)).toEqual(served(disk))
    expect(store.problems()).toEqual(disk.problems())
    expect(store.nextId('post')).toBe(disk.nextId('post'))
  })

  it('writes through the driver, and a store loaded again from it serves what the running one does', async () => {
    const { driver, store } = await memoryStore()
    const id = store.nextId('post')
    await store.commit('events', store.newStem('events', 'night-market', id), {
      en: { data: { id, ...NIGHT_MARKET }, body: 'Food and *lights*.' },
      ms: { data: { title: 'Pasar Malam', slug: 'pasar-malam' }, body: '' },
    })
    expect(driver.files.get('events/night-market.en.md')).toMatch(/^---\nid: 17\ntitle: Night Market\n/)
    expect(store.bySlug('events', 'ms', 'pasar-malam')?.id).toBe(id)
    const again = await createStore(driver, OPTIONS)
    expect(served(again)).toEqual(served(store))
  })

  it('puts every file back when a transaction fails, and never hands out the id of a deleted record', async () => {
    const { driver, store } = await memoryStore()
    const before = new Map(driver.files)
    const deleted = store.list('venues')[0]!
    await expect(
      store.transaction(async (tx) => {
        await tx.commit(
          'venues',
          deleted.stem,
          Object.fromEntries([...deleted.files.keys()].map((lang) => [lang, null])),
        )
        await tx.commit('events', 'night-market', { en: { data: { id: 99, ...NIGHT_MARKET }, body: '' } })
        throw new Error('the handler failed')
      }),
    ).rejects.toThrow('the handler failed')
    expect(new Map(driver.files)).toEqual(before)
    expect(store.get('venues', deleted.id)).toBeDefined()
    const posts = (['events', 'venues', 'organizers'] as const).flatMap((kind) => store.list(kind))
    const top = posts.sort((a, b) => b.id - a.id)[0]!
    const next = store.nextId('post')
    expect(top.id).toBe(next - 1)
    await store.commit(top.kind, top.stem, Object.fromEntries([...top.files.keys()].map((lang) => [lang, null])))
    expect(driver.files.get('.ids.yaml')).toMatch(new RegExp(`^post: ${top.id}$`, 'm'))
    expect((await createStore(driver, OPTIONS)).nextId('post')).toBe(next)
  })

  it('refuses a write over a file changed behind its back (412), then serves the change', async () => {
    const { driver, store } = await memoryStore()
    const venue = store.list('venues')[0]!
    const edited = driver.files.get(venue.source.path)!.replace(/^venue: .*$/m, 'venue: Edited By Hand')
    await driver.write(venue.source.path, edited)
    const write = store.commit('venues', venue.stem, { en: { data: venue.source.data, body: 'x' } })
    await expect(write).rejects.toMatchObject({ status: 412 })
    expect(store.fieldsIn(store.get('venues', venue.id)!, 'en')?.venue).toBe('Edited By Hand')
  })

  it('hears the driver through watchContent: a file added behind its back is served', async () => {
    const { driver, store } = await memoryStore()
    const watching = watchContent(store, undefined, (listener) => driver.watch(listener))
    try {
      await watching.ready
      await driver.write(
        'events/added.en.md',
        `---\nid: 500\n${Object.entries(NIGHT_MARKET)
          .map(([k, v]) => `${k}: ${v}`)
          .join('\n')}\n---\n`,
      )
      for (let i = 0; i < 100 && !store.get('events', 500); i++) await new Promise((resolve) => setTimeout(resolve, 10))
      expect(store.get('events', 500)?.stem).toBe('added')
    } finally {
      await watching.close()
    }
  })
})
