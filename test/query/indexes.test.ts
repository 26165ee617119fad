import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createStore, type ContentRecord, type Store } from '../../src/content/store.ts'
import type { Indexes } from '../../src/context/indexes.ts'
import { createIndexes } from '../../src/query/indexes.ts'
import { FIXTURES } from '../helpers.ts'

const ZONE = 'Asia/Singapore'

/** The same store with one event replaced, removed or added, for comparing against a fresh build. */
function withEvents(store: Store, events: ContentRecord[]): Store {
  return {
    ...store,
    list: (kind) => (kind === 'events' ? events : store.list(kind)),
    events: () => events,
  }
}

function snapshot(indexes: Indexes) {
  return {
    byStart: indexes.byStart().map((e) => e.id),
    byEnd: indexes.byEnd().map((e) => e.id),
    counts: [1, 2, 3, 4, 10, 11].map((id) => indexes.termCount(id)),
    venues: [1, 2].map((id) => [...indexes.linked('venues', id)].sort()),
    terms: [1, 2, 3, 10].map((id) => [...indexes.linked('terms', id)].sort()),
    search: [...indexes.search('en').match('waterfront')].sort(),
  }
}

function changed(record: ContentRecord, data: Record<string, unknown>, body = record.source.body): ContentRecord {
  const source = { ...record.source, data: { ...record.source.data, ...data }, body }
  return {
    ...record,
    source,
    files: new Map([...record.files].map(([lang, file]) => [lang, file === record.source ? source : file])),
  }
}

describe('incremental indexes', () => {
  it('end up equal to a fresh build after changing, removing and adding events one at a time', async () => {
    const store = await createStore(resolve(FIXTURES, 'filters', 'content'), { defaultLanguage: 'en', fallback: true })
    const indexes = createIndexes(store, ZONE)
    indexes.search('en') // built before the changes, so it must follow them too
    const jazz = store.get('events', 100)!
    const moved = changed(
      jazz,
      {
        start_date: '2027-02-01 19:00:00',
        end_date: '2027-02-01 21:00:00',
        venue: [2],
        categories: [3],
        status: 'draft',
      },
      'Now by the bay.',
    )
    const symphony = store.get('events', 101)!
    const added = changed(symphony, { id: 120, slug: 'new-one', tags: [11, 10] })

    indexes.update(jazz, moved)
    indexes.update(symphony, undefined)
    indexes.update(undefined, { ...added, id: 120 })

    const events = store
      .list('events')
      .filter((r) => r.id !== 100 && r.id !== 101)
      .concat(moved, { ...added, id: 120 })
    const fresh = createIndexes(withEvents(store, events), ZONE)
    expect(snapshot(indexes)).toEqual(snapshot(fresh))
    expect(snapshot(indexes).search).toEqual([])
    expect(indexes.termCount(2)).toBe(1) // the draft no longer counts for Jazz
  })
})

describe('the background search build', () => {
  it('ends equal to a synchronous build even when an event changes mid-build', async () => {
    const { createSearchIndex } = await import('../../src/query/search.ts')
    const store = await createStore(resolve(FIXTURES, 'filters', 'content'), { defaultLanguage: 'en', fallback: true })
    const index = createSearchIndex(store, 'en', true)
    const jazz = store.get('events', 100)!
    const renamed = changed(jazz, { title: 'Blues by the Bay' }, 'Slow blues.')
    index.update(jazz, renamed)
    await index.ready
    expect([...index.match('blues')]).toEqual([100])
    expect([...index.match('waterfront')]).toEqual([])
    expect([...index.match('brahms')]).toEqual([101])
  })
})
