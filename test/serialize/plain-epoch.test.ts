import { rm } from 'node:fs/promises'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ContentRecord } from '../../src/content/store.ts'
import type { Memo } from '../../src/context/caches.ts'
import { createCaches } from '../../src/serialize/caches.ts'
import { toEventJson } from '../../src/serialize/event.ts'
import type { View } from '../../src/serialize/view.ts'
import { as, call, json, SAMPLE_NOW, testSite, writableApp } from '../helpers.ts'

// An event's JSON is kept per record object and the epoch of what it shows besides itself (src/serialize/
// plain-epoch.ts), not per store version: an edit of one event leaves every other event's kept JSON in use, and a
// change of something events show (a venue here) has each of them built again, showing it.

let app: Awaited<ReturnType<typeof writableApp>>
let view: View
beforeEach(async () => {
  app = await writableApp('reference')
  const site = testSite()
  view = {
    store: app.store,
    site,
    lang: 'en',
    prefix: null,
    langNamed: false,
    now: SAMPLE_NOW,
    reader: 'none',
    caches: createCaches(),
    indexes: app.indexes,
  }
})
afterEach(async () => {
  await rm(app.dir, { recursive: true, force: true })
})

/** Each published event's kept JSON, by id. */
function keptJson(): Map<number, Memo> {
  const kept = new Map<number, Memo>()
  for (const record of app.store.list('events') as ContentRecord[])
    if (record.source.data.status === 'publish' && !record.source.data.password)
      kept.set(record.id, toEventJson(record, view))
  return kept
}

describe('the kept JSON of events', () => {
  it('stays in use for every other event when one event is written', async () => {
    const before = keptJson()
    expect(before.size).toBeGreaterThan(2)
    const written = await call(app, 'events/8', json('PATCH', { title: 'Written Once' }, as('admin')))
    expect(written.status).toBe(200)
    const after = keptJson()
    for (const [id, memo] of before) {
      if (id === 8) {
        expect(after.get(id)).not.toBe(memo)
        expect(JSON.parse(after.get(id)!.bytes.toString()).title).toBe('Written Once')
      } else expect(after.get(id), `event ${id}`).toBe(memo)
    }
  })

  it('is built again, showing it, when a venue events show changes', async () => {
    const before = keptJson()
    const written = await call(app, 'venues/4', json('PATCH', { venue: 'Town Hall, Renamed' }, as('admin')))
    expect(written.status).toBe(200)
    const after = keptJson()
    const venueOf = (memo: Memo) => JSON.parse(memo.bytes.toString()).venue?.venue
    expect(venueOf(before.get(7)!)).toBe('Town Hall')
    expect(venueOf(after.get(7)!)).toBe('Town Hall, Renamed')
    for (const [id, memo] of before) expect(after.get(id), `event ${id}`).not.toBe(memo)
  })
  it('is built again, with the new count, for the events that embed a category another event joins or leaves', async () => {
    const countOf = (memo: Memo) => JSON.parse(memo.bytes.toString()).categories[0]?.count
    const before = keptJson()
    expect(countOf(before.get(7)!)).toBe(2)
    await call(app, 'events/8', json('PATCH', { categories: [2] }, as('admin')))
    expect(countOf(keptJson().get(7)!)).toBe(3)
    await call(app, 'events/8', json('PATCH', { status: 'draft' }, as('admin')))
    const left = keptJson()
    expect(countOf(left.get(7)!)).toBe(2)
    // A write that moves no count leaves it in use.
    await call(app, 'events/9', json('PATCH', { title: 'Retitled' }, as('admin')))
    expect(keptJson().get(7)).toBe(left.get(7))
  })
})
