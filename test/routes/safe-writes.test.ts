import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { as, call, json, writableApp } from '../helpers.ts'
import { reloadApp, snapshot } from './writes-tree.ts'

let app: Awaited<ReturnType<typeof writableApp>>
beforeEach(async () => {
  app = await writableApp('reference')
})
afterEach(async () => {
  await rm(app.dir, { recursive: true, force: true })
})

const EVENT = { title: 'Night Market', start_date: '2026-12-20 18:00:00', end_date: '2026-12-20 23:00:00' }

/** The answers of a few GETs, as an anonymous caller and as an administrator. */
async function answers(target: typeof app | Awaited<ReturnType<typeof reloadApp>>, paths: string[]) {
  const out: Record<string, string> = {}
  for (const path of paths) {
    out[path] = (await call(target, path)).text
    out[`admin ${path}`] = (await call(target, path, { headers: as('admin') })).text
  }
  return out
}

describe('creating records inline', () => {
  it('gives an event and its new venue and organizers distinct ids, and the tree reloads with no problem', async () => {
    const response = await call(
      app,
      'events',
      json(
        'POST',
        {
          ...EVENT,
          venue: { venue: 'New Hall', city: 'X' },
          organizer: [{ organizer: 'New Org' }, { organizer: 'Other Org' }],
        },
        as('admin'),
      ),
    )
    expect(response.status, response.text).toBe(201)
    const ids = [response.body.id, response.body.venue.id, ...response.body.organizer.map((o: { id: number }) => o.id)]
    expect(new Set(ids).size).toBe(4)
    const second = await call(
      app,
      'events',
      json('POST', { ...EVENT, title: 'Two', organizer: [{ organizer: 'Third Org' }] }, as('author')),
    )
    expect(second.status, second.text).toBe(201)
    expect(second.body.id).not.toBe(second.body.organizer[0].id)
    const fresh = await reloadApp(app.content, app.dir)
    expect(fresh.problems).toEqual([])
    const paths = [
      'events',
      'venues',
      'organizers',
      `events/${response.body.id}`,
      `venues/${response.body.venue.id}`,
      `events/${second.body.id}`,
    ]
    expect(await answers(fresh, paths)).toEqual(await answers(app, paths))
  })

  it('creates one organizer for a name sent twice in one request', async () => {
    const response = await call(
      app,
      'events',
      json('POST', { ...EVENT, organizer: [{ organizer: 'Twice' }, { organizer: 'twice' }] }, as('admin')),
    )
    expect(response.status, response.text).toBe(201)
    expect(response.body.organizer).toHaveLength(1)
    expect((await reloadApp(app.content)).problems).toEqual([])
  })
})

describe('reusing a record of the same name (docs/compatibility.md §24)', () => {
  it('never writes onto a record the caller may not change, and never takes over its author', async () => {
    const before = await snapshot(app.content)
    const venue = await call(
      app,
      'venues',
      json('POST', { venue: 'Town Hall', city: 'Stolen', author: 1 }, as('contributor')),
    )
    expect(venue.status).toBe(403) // a contributor may not name another author
    const plain = await call(app, 'venues', json('POST', { venue: 'town hall', city: 'Stolen' }, as('contributor')))
    expect(plain.status).toBe(201)
    expect(plain.body.author).toBe('1')
    expect(plain.body.city).not.toBe('Stolen')
    const event = await call(
      app,
      'events',
      json(
        'POST',
        {
          ...EVENT,
          venue: { venue: 'Town Hall', city: 'Stolen' },
          organizer: [{ organizer: 'Acme Events', email: 'x@evil.test' }],
        },
        as('author'),
      ),
    )
    expect(event.status).toBe(201)
    expect(event.body.venue.id).toBe(4)
    expect(event.body.organizer[0].id).toBe(5)
    const after = await snapshot(app.content)
    for (const path of ['venues/town-hall.en.md', 'organizers/acme-events.en.md'])
      expect(after[path]).toBe(before[path])
  })

  it('writes onto a same-named record the caller may change, but never its author', async () => {
    const mine = await call(app, 'venues', json('POST', { venue: 'Harbour Hall', city: 'Singapore' }, as('author')))
    const again = await call(
      app,
      'venues',
      json('POST', { venue: 'Harbour Hall', phone: '1', author: 1 }, as('editor')),
    )
    expect(again.status).toBe(201)
    expect(again.body).toMatchObject({ id: mine.body.id, phone: '1', author: '3' })
  })

  it("creates a new record rather than reveal another's draft of the same name", async () => {
    const draft = await call(
      app,
      'organizers',
      json('POST', { organizer: 'Hidden Org', email: 'secret@x.test', status: 'draft' }, as('admin')),
    )
    const response = await call(app, 'organizers', json('POST', { organizer: 'Hidden Org' }, as('contributor')))
    expect(response.status).toBe(201)
    expect(response.body.id).not.toBe(draft.body.id)
    expect(response.text).not.toContain('secret@x.test')
    const inline = await call(
      app,
      'events',
      json('POST', { ...EVENT, organizer: [{ organizer: 'Hidden Org' }] }, as('author')),
    )
    expect(inline.body.organizer[0].id).not.toBe(draft.body.id)
    expect(inline.text).not.toContain('secret@x.test')
  })

  it('reuses a venue by its name alone, whatever description is sent, as the reference does', async () => {
    const first = await call(app, 'venues', json('POST', { venue: 'Dock', description: 'By the water' }, as('admin')))
    expect(
      (await call(app, 'venues', json('POST', { venue: 'dock', description: 'by the water ' }, as('admin')))).body.id,
    ).toBe(first.body.id)
    expect((await call(app, 'venues', json('POST', { venue: 'Dock', description: '' }, as('admin')))).body.id).toBe(
      first.body.id,
    )
    expect((await call(app, 'venues', json('POST', { venue: 'Dock' }, as('admin')))).body.id).toBe(first.body.id)
    expect(
      (await call(app, 'venues', json('POST', { venue: 'Dock', description: 'Up the hill' }, as('admin')))).body.id,
    ).toBe(first.body.id)
  })
})

describe('a write is all or nothing', () => {
  const bad = [
    {
      ...EVENT,
      end_date: '2026-12-19 23:00:00',
      venue: { venue: 'Orphan Hall' },
      organizer: [{ organizer: 'Orphan Org' }],
      categories: ['Orphan Category'],
      tags: ['orphan-tag'],
    },
    { ...EVENT, organizer: [{ organizer: 'Orphan Org' }, { organizer: '' }] },
    {
      ...EVENT,
      venue: { venue: 'Orphan Hall' },
      categories: ['Orphan Category'],
      organizer: [{ organizer: 'Orphan Org', website: 'not a url' }],
    },
    {
      ...EVENT,
      categories: ['Orphan Category'],
      organizer: [{ organizer: 'Orphan Org' }],
      venue: [{ venue: 'A' }, { venue: 'B' }],
    },
    {
      ...EVENT,
      categories: ['Orphan Category'],
      venue: { venue: 'Orphan Hall' },
      organizer: [{ organizer: 'Orphan Org', author: 999 }],
    },
  ]

  it('leaves the tree byte-identical and the store unchanged when a create is refused', async () => {
    const tree = await snapshot(app.content)
    const paths = ['events', 'venues', 'organizers', 'categories', 'tags']
    const seen = await answers(app, paths)
    for (const body of bad) {
      const response = await call(app, 'events', json('POST', body, as('admin')))
      expect(response.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400)
      expect(response.status).toBeLessThan(500)
      expect(await snapshot(app.content)).toEqual(tree)
      expect(await answers(app, paths)).toEqual(seen)
    }
  })

  it('rolls back every file and record of a transaction that fails after writing', async () => {
    const tree = await snapshot(app.content)
    const venue = app.store.get('venues', 4)!
    const failed = app.store.transaction(async (tx) => {
      await tx.commit('venues', 'fresh-hall', {
        en: { data: { id: 90, venue: 'Fresh Hall', status: 'publish', author: 1 }, body: '' },
      })
      await tx.commit('venues', venue.stem, {
        en: { data: { ...venue.source.data, city: 'Elsewhere' }, body: 'changed' },
        ms: { data: { venue: 'Dewan' }, body: '' },
      })
      await tx.commit('events', 'plain-meetup', { en: null })
      throw new Error('a later step failed')
    })
    await expect(failed).rejects.toThrow('a later step failed')
    expect(await snapshot(app.content)).toEqual(tree)
    expect(app.store.get('venues', 90)).toBeUndefined()
    expect(app.store.get('venues', 4)!.source).toEqual(venue.source)
    expect(app.store.get('events', 8)?.source.data.title).toBe('Plain Meetup')
    expect((await call(app, 'venues/4')).body.city).toBe(venue.source.data.city)
  })

  it('leaves the tree byte-identical when an update is refused', async () => {
    const tree = await snapshot(app.content)
    for (const body of bad) {
      const response = await call(app, 'events/8', json('PATCH', body, as('admin')))
      expect(response.status).toBeGreaterThanOrEqual(400)
      expect(await snapshot(app.content)).toEqual(tree)
    }
  })
})

describe('who may name the author', () => {
  it('refuses another author from those who may not edit others’ posts, with rest_cannot_edit_others', async () => {
    for (const [route, body] of [
      ['events', EVENT],
      ['venues', { venue: 'V1' }],
      ['organizers', { organizer: 'O1' }],
    ] as const) {
      const response = await call(app, route, json('POST', { ...body, author: 1 }, as('author')))
      expect(response.status).toBe(403)
      expect(response.body.code).toBe('rest_cannot_edit_others')
      expect((await call(app, route, json('POST', { ...body, author: 1 }, as('contributor')))).status).toBe(403)
    }
    const own = await call(app, 'events', json('POST', { ...EVENT, author: 3 }, as('author')))
    expect(own.status).toBe(201)
    const mine = own.body.id
    expect((await call(app, `events/${mine}`, json('PATCH', { author: 1 }, as('author')))).body.code).toBe(
      'rest_cannot_edit_others',
    )
    expect((await call(app, 'events', json('POST', { ...EVENT, author: 3 }, as('editor')))).body.author).toBe('3')
  })
})

describe('statuses a contributor may write (docs/compatibility.md §22)', () => {
  it('scales a contributor’s private back to pending, and lets an author keep it', async () => {
    const contributor = await call(app, 'events', json('POST', { ...EVENT, status: 'private' }, as('contributor')))
    expect(contributor.body.status).toBe('pending')
    const venue = await call(app, 'venues', json('POST', { venue: 'Quiet Hall', status: 'private' }, as('contributor')))
    expect(venue.body.status).toBe('pending')
    expect((await call(app, 'events', json('POST', { ...EVENT, status: 'private' }, as('author')))).body.status).toBe(
      'private',
    )
  })
})

describe('empty strings where the reference wants text', () => {
  it('refuses an empty event description on create and an empty term slug or description', async () => {
    const tree = await snapshot(app.content)
    const event = await call(app, 'events', json('POST', { ...EVENT, description: '' }, as('admin')))
    expect(event.status).toBe(400)
    expect(Object.keys(event.body.data.params)).toEqual(['description'])
    for (const body of [{ slug: '' }, { description: '' }]) {
      const term = await call(app, 'categories/2', json('PATCH', body, as('admin')))
      expect(term.status, JSON.stringify(body)).toBe(400)
      expect(term.body.code).toBe('rest_invalid_param')
    }
    expect((await call(app, 'tags', json('POST', { name: 'x', description: '' }, as('admin')))).status).toBe(400)
    expect(await snapshot(app.content)).toEqual(tree)
  })

  it('makes a term slug that sanitizes to nothing from the name, as WordPress does, never empty', async () => {
    expect((await call(app, 'categories/2', json('PATCH', { slug: '!!!' }, as('admin')))).body.slug).toBe('music')
    expect((await call(app, 'tags', json('POST', { name: 'Loud', slug: '%%' }, as('admin')))).body.slug).toBe('loud')
    expect((await reloadApp(app.content)).problems).toEqual([])
  })
})

describe('event passwords', () => {
  it('never takes a field from the query of a write', async () => {
    const response = await call(
      app,
      'events/8?password=fromquery&title=Query',
      json('PATCH', { excerpt: 'e' }, as('admin')),
    )
    expect(response.status).toBe(200)
    expect(response.body.title).toBe('Plain Meetup')
    expect((await call(app, 'events/8')).status).toBe(200)
    const created = await call(
      app,
      'events?title=Query',
      json('POST', { start_date: EVENT.start_date, end_date: EVENT.end_date }, as('admin')),
    )
    expect(created.status).toBe(400)
  })

  it('sets a password on create and on update, and "" clears it', async () => {
    const created = await call(
      app,
      'events',
      json('POST', { ...EVENT, description: 'Behind the door', password: 'pw1' }, as('admin')),
    )
    expect(created.status).toBe(201)
    expect(created.body.description).toBe('<p>Behind the door</p>') // the writer sees what they wrote
    const id = created.body.id
    expect((await call(app, `events/${id}`)).body.code).toBe('event-password-protected')
    expect((await call(app, `events/${id}?password=pw1`)).status).toBe(200)
    await call(app, `events/${id}`, json('PATCH', { password: 'pw2' }, as('admin')))
    expect((await call(app, `events/${id}?password=pw2`)).status).toBe(200)
    await call(app, 'events/by-slug/night-market', json('PATCH', { password: 'pw3' }, as('admin')))
    expect((await call(app, `events/${id}?password=pw3`)).status).toBe(200)
    const cleared = await call(app, `events/${id}`, json('PATCH', { password: '' }, as('admin')))
    expect(cleared.status).toBe(200)
    expect((await call(app, `events/${id}`)).status).toBe(200)
    expect(await readFile(join(app.content, 'events/night-market.en.md'), 'utf8')).not.toContain('password')
  })
})

describe('dates in writes', () => {
  it('reads a Unix timestamp as its UTC wall clock in the event’s zone, as the reference does (docs/compatibility.md §30)', async () => {
    const response = await call(
      app,
      'events',
      json(
        'POST',
        { ...EVENT, timezone: 'Asia/Kuala_Lumpur', start_date: '1798794000', end_date: '1798797600' },
        as('admin'),
      ),
    )
    expect(response.status, response.text).toBe(201)
    expect(response.body).toMatchObject({
      start_date: '2027-01-01 09:00:00',
      utc_start_date: '2027-01-01 01:00:00',
      end_date: '2027-01-01 10:00:00',
    })
  })

  it('answers 400, not 500, for a date out of range, in reads and writes', async () => {
    for (const value of ['+100000 years', '-100000 years', '+10000000 days']) {
      const write = await call(app, 'events', json('POST', { ...EVENT, start_date: value }, as('admin')))
      expect(write.status, value).toBe(400)
      expect((await call(app, `events?start_date=${encodeURIComponent(value)}`)).status).toBe(400)
    }
  })

  it('keeps years 0000 to 0099 as they are', async () => {
    const response = await call(
      app,
      'events',
      json('POST', { ...EVENT, start_date: '0050-03-01 10:00:00', end_date: '0050-03-01 11:00:00' }, as('admin')),
    )
    expect(response.status, response.text).toBe(201)
    expect(response.body.start_date).toBe('0050-03-01 10:00:00')
    expect(response.body.utc_end_date).toBe('0050-03-01 11:00:00')
  })
})
