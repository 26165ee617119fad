import { readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createStore } from '../../src/content/store.ts'
import { as, call, json, writableApp } from '../helpers.ts'

let app: Awaited<ReturnType<typeof writableApp>>
beforeEach(async () => {
  app = await writableApp('reference')
})
afterEach(async () => {
  await rm(app.dir, { recursive: true, force: true })
})

const EVENT = { title: 'Night Market', start_date: '2026-12-20 18:00:00', end_date: '2026-12-20 23:00:00' }

describe('who may write (docs/compatibility.md §3)', () => {
  it('answers an anonymous write 401 rest_forbidden, whatever its body', async () => {
    for (const body of [EVENT, '{not json', '']) {
      const response = await call(app, 'events', json('POST', body))
      expect(response.status).toBe(401)
      expect(response.body).toEqual({
        code: 'rest_forbidden',
        message: 'Sorry, you are not allowed to do that.',
        data: { status: 401 },
      })
    }
  })

  it('answers a wrong application password 401 incorrect_password', async () => {
    const response = await call(app, 'events', json('POST', EVENT, as('admin', 'wrong-password-123')))
    expect(response.status).toBe(401)
    expect(response.body.code).toBe('incorrect_password')
  })

  it('answers a subscriber 403 before looking at the body', async () => {
    const response = await call(app, 'events', json('POST', {}, as('subscriber')))
    expect(response.status).toBe(403)
    expect(response.body.code).toBe('rest_forbidden')
  })

  it('lets a contributor propose, scaling publish back to pending (docs/compatibility.md §22)', async () => {
    const response = await call(app, 'events', json('POST', { ...EVENT, status: 'publish' }, as('contributor')))
    expect(response.status).toBe(201)
    expect(response.body.status).toBe('pending')
    expect(response.body.author).toBe('4')
  })

  it("keeps a contributor off another's event, by id and by slug alike (docs/compatibility.md §6)", async () => {
    expect((await call(app, 'events/7', json('POST', { title: 'Mine now' }, as('contributor')))).status).toBe(403)
    expect(
      (await call(app, 'events/by-slug/summer-concert', json('POST', { title: 'Mine now' }, as('contributor')))).status,
    ).toBe(403)
    expect((await call(app, 'events/by-slug/summer-concert', json('DELETE', {}, as('contributor')))).status).toBe(403)
    expect((await call(app, 'events/7')).body.title).toBe('Summer Concert')
  })

  it('lets an author change their own published event but not an admin’s', async () => {
    const created = await call(app, 'events', json('POST', EVENT, as('author')))
    expect(created.body.status).toBe('publish')
    expect(
      (await call(app, `events/${created.body.id}`, json('PATCH', { title: 'Renamed' }, as('author')))).status,
    ).toBe(200)
    expect((await call(app, 'events/7', json('PATCH', { title: 'No' }, as('author')))).status).toBe(403)
  })

  it('shows authenticated callers Allow by role, and marks their answers private', async () => {
    const response = await call(app, 'events/8', { headers: as('admin') })
    expect(response.headers.get('allow')).toBe('GET, DELETE, POST, PUT, PATCH')
    expect(response.headers.get('cache-control')).toBe('no-cache, must-revalidate, max-age=0, no-store, private')
    expect((await call(app, 'events/8')).headers.get('allow')).toBe('GET')
  })
})

describe('creating and updating events', () => {
  it('creates an event with the reference shape, a file on disk, and reads it back at once', async () => {
    const response = await call(
      app,
      'events',
      json(
        'POST',
        {
          ...EVENT,
          description: '<p>Food and <strong>lights</strong>.</p>',
          timezone: 'Asia/Singapore',
          cost: 'S$5',
          venue: { id: 4 },
          organizer: [5],
          categories: [2],
          tags: ['outdoor'],
          featured: true,
        },
        as('admin'),
      ),
    )
    expect(response.status).toBe(201)
    const event = response.body
    expect(event).toMatchObject({
      title: 'Night Market',
      slug: 'night-market',
      status: 'publish',
      start_date: '2026-12-20 18:00:00',
      utc_start_date: '2026-12-20 10:00:00',
      timezone_abbr: '+08',
      cost: 'S$5',
      featured: true,
      show_map: false,
    })
    expect(event.venue.id).toBe(4)
    expect(event.organizer.map((o: { id: number }) => o.id)).toEqual([5])
    expect(event.tags.map((t: { id: number }) => t.id)).toEqual([3])
    expect(event.json_ld).toBeUndefined()
    const file = await readFile(join(app.content, 'events/night-market.en.md'), 'utf8')
    expect(file).toContain('\nstart_date: 2026-12-20 18:00:00\n')
    expect(file.endsWith('<p>Food and <strong>lights</strong>.</p>\n')).toBe(true)
    expect((await call(app, `events/${event.id}`)).body.title).toBe('Night Market')
    expect((await call(app, 'events?search=market')).body.events.map((e: { id: number }) => e.id)).toEqual([event.id])
    expect((await call(app, 'categories/2')).body.count).toBe(3)
  })

  it('says which arguments are missing or invalid, as WordPress does', async () => {
    const missing = await call(app, 'events', json('POST', { start_date: '2026-12-20 18:00:00' }, as('admin')))
    expect(missing.body).toEqual({
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): title, end_date',
      data: { status: 400, params: ['title', 'end_date'] },
    })
    const bad = await call(
      app,
      'events',
      json('POST', { title: 'x', start_date: 'not-a-date', end_date: 'also-not' }, as('admin')),
    )
    expect(bad.body.message).toBe('Invalid parameter(s): start_date, end_date')
    const typed = await call(app, 'events', json('POST', { ...EVENT, featured: 'maybe' }, as('admin')))
    expect(typed.body.data.params).toEqual({ featured: 'featured is not of type boolean.' })
  })

  it('refuses an end before the start, naming end_date, and stores nothing (docs/compatibility.md §7)', async () => {
    const before = await readdir(join(app.content, 'events'))
    const response = await call(app, 'events', json('POST', { ...EVENT, end_date: '2026-12-19 23:00:00' }, as('admin')))
    expect(response.status).toBe(400)
    expect(Object.keys(response.body.data.params)).toEqual(['end_date'])
    expect(await readdir(join(app.content, 'events'))).toEqual(before)
  })

  it('changes only the fields sent, and a lone start date moves the start (docs/compatibility.md §4)', async () => {
    const response = await call(app, 'events/7', json('PATCH', { start_date: '2026-11-25 18:00:00' }, as('admin')))
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({
      title: 'Summer Concert',
      start_date: '2026-11-25 18:00:00',
      end_date: '2026-11-25 22:30:00',
      cost: '$15',
      featured: true,
    })
    expect(response.body.organizer).toHaveLength(1)
    const late = await call(app, 'events/7', json('PATCH', { start_date: '2026-11-26 00:00:00' }, as('admin')))
    expect(late.status).toBe(400)
  })

  it('clears a field sent empty, and can unlink a venue (docs/compatibility.md §4)', async () => {
    const response = await call(
      app,
      'events/7',
      json('PUT', { venue: '', organizer: [], excerpt: '', website: '' }, as('admin')),
    )
    expect(response.body.venue).toEqual([])
    expect(response.body.organizer).toEqual([])
    expect(response.body.excerpt).toBe('')
    expect(response.body.website).toBe('')
  })

  it('writes translatable fields sent with ml_language to that language’s file', async () => {
    const response = await call(
      app,
      'events/8?ml_language=ta',
      json('PATCH', { title: 'சாதாரண சந்திப்பு', cost: 'இலவசம்' }, as('admin')),
    )
    expect(response.body).toMatchObject({ lang: 'ta', title: 'சாதாரண சந்திப்பு' })
    const file = await readFile(join(app.content, 'events/plain-meetup.ta.md'), 'utf8')
    expect(file).toBe('---\ntitle: சாதாரண சந்திப்பு\ncost: இலவசம்\n---\n')
    expect((await call(app, 'events/8')).body.title).toBe('Plain Meetup')
  })

  it('accepts an organizer as an id, an object, a list or a CSV string (docs/compatibility.md §11)', async () => {
    for (const organizer of [5, '5', { id: 5 }, [5, { organizer: 'Acme Events' }], '5,5']) {
      const response = await call(app, 'events/8', json('PATCH', { organizer }, as('admin')))
      expect(response.status, JSON.stringify(organizer)).toBe(200)
      expect(response.body.organizer.map((o: { id: number }) => o.id)).toEqual([5])
    }
  })

  it('creates a venue inline, and reuses one of the same name (docs/compatibility.md §24)', async () => {
    const first = await call(
      app,
      'events/8',
      json('PATCH', { venue: { venue: 'Harbour Hall', city: 'Singapore' } }, as('admin')),
    )
    const again = await call(
      app,
      'events/10',
      json('PATCH', { venue: { venue: 'harbour hall', phone: '+65 6000 0000' } }, as('admin')),
    )
    expect(again.body.venue.id).toBe(first.body.venue.id)
    expect(again.body.venue.phone).toBe('+65 6000 0000')
    expect(again.body.venue.city).toBe('Singapore')
  })

  it('answers 412 with the current ETag when If-Match is stale, and writes when it matches (docs/compatibility.md §14)', async () => {
    const current = await call(app, 'events/8', { headers: as('admin') })
    const etag = current.headers.get('etag')!
    const stale = await call(app, 'events/8', json('PATCH', { title: 'A' }, { ...as('admin'), 'If-Match': '"stale"' }))
    expect(stale.status).toBe(412)
    expect(stale.body.code).toBe('precondition-failed')
    expect(stale.headers.get('etag')).toBe(etag)
    const fresh = await call(app, 'events/8', json('PATCH', { title: 'B' }, { ...as('admin'), 'If-Match': etag }))
    expect(fresh.status).toBe(200)
  })
})

describe('deleting events', () => {
  it('trashes, answers 410 the second time, hides it, and restores it on update', async () => {
    const trashed = await call(app, 'events/8', json('DELETE', {}, as('admin')))
    expect(trashed.status).toBe(200)
    expect(trashed.body).toMatchObject({
      status: 'trash',
      slug: 'plain-meetup__trashed',
      url: 'http://127.0.0.1:8089/?post_type=tribe_events&p=8',
    })
    expect((await call(app, 'events/8', json('DELETE', {}, as('admin')))).body.code).toBe('event-is-in-trash')
    expect((await call(app, 'events/8', { headers: as('admin') })).body.code).toBe('event-no-longer-available')
    const restored = await call(app, 'events/8', json('POST', { title: 'Back' }, as('admin')))
    expect(restored.body).toMatchObject({ status: 'publish', slug: 'plain-meetup', title: 'Back' })
  })

  it('deletes for good with force=true, for editors only (docs/compatibility.md §8)', async () => {
    expect((await call(app, 'events/10?force=true', json('DELETE', {}, as('author')))).status).toBe(403)
    const response = await call(app, 'events/10?force=true', json('DELETE', {}, as('editor')))
    expect(response.body.deleted).toBe(true)
    expect(response.body.previous.id).toBe(10)
    expect((await readdir(join(app.content, 'events'))).includes('workshop-four.en.md')).toBe(false)
    expect((await call(app, 'events/10')).status).toBe(404)
    const reloaded = await createStore(app.content, { defaultLanguage: 'en', fallback: true })
    expect(reloaded.get('events', 10)).toBeUndefined()
  })
})

describe('hostile input', () => {
  it('stores a title full of YAML and front-matter syntax as text, and the file still parses', async () => {
    const title = '---\nid: 999\n__proto__: {x: 1}\n# \'"[{&*!|>'
    const response = await call(app, 'events', json('POST', { ...EVENT, title, slug: '../../etc/passwd' }, as('admin')))
    expect(response.status).toBe(201)
    expect(response.body.title).toBe(title)
    expect(response.body.slug).toBe('etcpasswd')
    const reloaded = await createStore(app.content, { defaultLanguage: 'en', fallback: true })
    expect(reloaded.get('events', response.body.id)?.source.data.title).toBe(title)
    expect(reloaded.get('events', 999)).toBeUndefined()
  })

  it('refuses a body over 1 MB with 413 and deep JSON with 400, writing nothing', async () => {
    const files = (await readdir(join(app.content, 'events'))).length
    const huge = await call(app, 'events', json('POST', { ...EVENT, description: 'x'.repeat(2_000_000) }, as('admin')))
    expect(huge.status).toBe(413)
    let deep: unknown = 'x'
    for (let i = 0; i < 100; i++) deep = { deep }
    const nested = await call(app, 'events', json('POST', { ...EVENT, custom: deep }, as('admin')))
    expect(nested.status).toBe(400)
    expect(nested.body.code).toBe('rest_invalid_json')
    const malformed = await call(app, 'events', json('POST', '{"title": ', as('admin')))
    expect(malformed.body.code).toBe('rest_invalid_json')
    expect((await readdir(join(app.content, 'events'))).length).toBe(files)
  })
})

describe('a __proto__ key in a body', () => {
  it('is data: it neither sets the prototype of the request input nor stands in for an argument', async () => {
    const body =
      '{"__proto__": {"title": "From the prototype", "start_date": "2027-01-01 10:00:00", "end_date": "2027-01-01 11:00:00"}}'
    const response = await call(app, 'events', json('POST', body, as('admin')))
    expect(response.status).toBe(400)
    expect(response.body.code).toBe('rest_missing_callback_param')
    expect(({} as Record<string, unknown>).title).toBeUndefined()
  })
})
