import { rm } from 'node:fs/promises'
import { afterEach, describe, expect, it } from 'vitest'
import { createMemoryDriver } from '../../src/content/store/memory-driver.ts'
import { createStore, type Store } from '../../src/content/store.ts'
import { as, call, json, writableApp } from '../helpers.ts'

// Ids have one home (docs/architecture.md §5): a write takes ids from its transaction, and an id taken
// is never handed out again, whether or not its record is committed, kept, or deleted for good.

const MEETUP = '---\nid: 3\ntitle: Meetup\nstart_date: 2027-01-01 18:00:00\nend_date: 2027-01-01 19:00:00\n---\n'

function memoryStore(): Promise<Store> {
  return createStore(createMemoryDriver({ 'events/meetup.en.md': MEETUP }), { defaultLanguage: 'en', fallback: true })
}

describe('ids taken in a transaction', () => {
  it('are distinct, and not handed out again before their records are committed', async () => {
    const store = await memoryStore()
    await store.transaction(async (tx) => {
      const first = tx.nextId('post')
      const second = tx.nextId('post')
      expect(first).toBe(4)
      expect(second).toBeGreaterThan(first)
      expect(store.nextId('post')).toBeGreaterThan(second)
      expect(tx.nextId('term')).toBe(1)
    })
  })

  it('are not handed out again when the transaction fails (a gap, never a reuse)', async () => {
    const store = await memoryStore()
    let taken = 0
    const failing = store.transaction(async (tx) => {
      taken = tx.nextId('post')
      throw new Error('the write fails after taking an id')
    })
    await expect(failing).rejects.toThrow('the write fails')
    expect(store.nextId('post')).toBeGreaterThan(taken)
    await store.transaction(async (tx) => expect(tx.nextId('post')).toBeGreaterThan(taken))
  })
})

describe('an event created with inline organizers and a venue', () => {
  let dir = ''
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('gives each new record its own id, and none of them is given again after they are deleted for good', async () => {
    const app = await writableApp('reference')
    dir = app.dir
    const event = {
      title: 'Night Market',
      start_date: '2026-12-20 18:00:00',
      end_date: '2026-12-20 23:00:00',
      organizer: [{ organizer: 'First Crew' }, { organizer: 'Second Crew' }],
      venue: { venue: 'Lantern Yard', city: 'Singapore' },
    }
    const created = await call(app, 'events', json('POST', event, as('admin')))
    expect(created.status).toBe(201)
    const ids: [string, number][] = [
      ['events', created.body.id],
      ['venues', created.body.venue.id],
      ...created.body.organizer.map((o: { id: number }): [string, number] => ['organizers', o.id]),
    ]
    expect(new Set(ids.map(([, id]) => id)).size).toBe(4)
    for (const [kind, id] of ids) {
      const deleted = await call(app, `${kind}/${id}?force=true`, json('DELETE', {}, as('admin')))
      expect(deleted.status, `${kind}/${id}`).toBe(200)
      expect((await call(app, `${kind}/${id}`, { headers: as('admin') })).status, `${kind}/${id}`).not.toBe(200)
    }
    const again = await call(
      app,
      'events',
      json('POST', { ...event, organizer: [{ organizer: 'Third Crew' }] }, as('admin')),
    )
    expect(again.status).toBe(201)
    for (const id of [again.body.id, again.body.venue.id, again.body.organizer[0].id])
      expect(id).toBeGreaterThan(Math.max(...ids.map(([, taken]) => taken)))
  })
})
