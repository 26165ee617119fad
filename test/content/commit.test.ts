import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CommitError, createStore, type Store } from '../../src/content/store.ts'
import { DRIVERS, type DriverName, type OpenTree, writableTree } from './store-trees.ts'

// Writing runs over both drivers (docs/architecture.md §5): a copy of the reference tree on disk, and
// the same files in memory.

describe.each(DRIVERS)('writing records over the %s driver', (driver: DriverName) => {
  let tree: OpenTree
  let store: Store
  beforeEach(async () => {
    tree = await writableTree(driver, 'reference')
    store = await createStore(tree.source, { defaultLanguage: 'en', fallback: true })
  })
  afterEach(() => tree.close())

  it('writes a deterministic file, updates the maps and tells the listeners before resolving', async () => {
    const heard: [number | undefined, number | undefined][] = []
    store.onChange((before, after) => heard.push([before?.id, after?.id]))
    const id = store.nextId('post')
    expect(id).toBe(17)
    const stem = store.newStem('events', 'night-market', id)
    const record = await store.commit('events', stem, {
      en: {
        data: {
          id,
          title: 'Night Market',
          slug: 'night-market',
          start_date: '2027-01-01 18:00:00',
          end_date: '2027-01-01 23:00:00',
        },
        body: 'Food and *lights*.',
      },
      ms: { data: { title: 'Pasar Malam', slug: 'pasar-malam' }, body: '' },
    })
    expect(record?.id).toBe(id)
    expect(heard).toEqual([[undefined, id]])
    expect(store.bySlug('events', 'ms', 'pasar-malam')?.id).toBe(id)
    expect(await tree.read('events/night-market.en.md')).toBe(
      '---\nid: 17\ntitle: Night Market\nslug: night-market\nstart_date: 2027-01-01 18:00:00\nend_date: 2027-01-01 23:00:00\n---\nFood and *lights*.\n',
    )
    const reloaded = await createStore(tree.source, { defaultLanguage: 'en', fallback: true })
    expect(reloaded.get('events', id)?.source.data).toEqual(store.get('events', id)?.source.data)
  })

  it('refuses a write that would leave the tree invalid, and writes nothing', async () => {
    const before = await tree.read('events/plain-meetup.en.md')
    const source = store.get('events', 8)!.source
    await expect(
      store.commit('events', 'plain-meetup', {
        en: { data: { ...source.data, end_date: '2020-01-01 00:00:00' }, body: '' },
      }),
    ).rejects.toBeInstanceOf(CommitError)
    expect(await tree.read('events/plain-meetup.en.md')).toBe(before)
    await expect(store.commit('events', '../escape', { en: { data: source.data, body: '' } })).rejects.toBeInstanceOf(
      CommitError,
    )
  })

  it('never hands out the id of a record deleted for good', async () => {
    expect(store.nextId('post')).toBe(17)
    await store.commit('events', 'secret-party', { en: null })
    expect(store.get('events', 16)).toBeUndefined()
    expect(store.nextId('post')).toBe(17)
    await store.commit('events', 'secret-party-2', {
      en: {
        data: { id: 17, title: 'X', start_date: '2027-01-01 18:00:00', end_date: '2027-01-01 19:00:00' },
        body: '',
      },
    })
    await store.commit('events', 'secret-party-2', { en: null })
    const reloaded = await createStore(tree.source, { defaultLanguage: 'en', fallback: true })
    expect(reloaded.nextId('post')).toBe(18)
  })

  it('leaves no temporary files behind', async () => {
    await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        store.commit('events', 'plain-meetup', {
          en: { data: { ...store.get('events', 8)!.source.data, title: `Meetup ${n}` }, body: '' },
        }),
      ),
    )
    expect((await tree.stored('events')).filter((name) => name.endsWith('.tmp'))).toEqual([])
    expect(store.get('events', 8)?.source.data.title).toBe('Meetup 5')
  })
})
