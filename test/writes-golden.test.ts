import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { as, call, json, writableApp } from './helpers.ts'
import { ADDED, sample, shapeOf } from './golden.ts'

// The reference's own capture sequence (test/fixtures/tec-samples/INDEX.md), replayed in order as an
// administrator against a tree that holds only the poster image. Ids differ from the reference's,
// so requests use the ids Almanac handed out; each answer must have the sample's status, headers,
// keys, key order and types.
let app: Awaited<ReturnType<typeof writableApp>>
const ids: Record<string, number> = {}
beforeAll(async () => {
  app = await writableApp('empty')
})
afterAll(async () => {
  await rm(app.dir, { recursive: true, force: true })
})

const admin = as('admin')
const shape = (value: unknown, drop: string[] = []) =>
  JSON.stringify(shapeOf(value, new Set([...ADDED, ...drop])), null, 1)

async function expectLike(name: string, response: Awaited<ReturnType<typeof call>>, drop: string[] = []) {
  const reference = sample(name)
  expect(response.status, `${name}: ${response.text.slice(0, 300)}`).toBe(reference.status)
  for (const header of reference.headers) expect(response.headers.has(header), `${name}: header ${header}`).toBe(true)
  expect(shape(response.body, drop)).toBe(shape(reference.body, drop))
}

describe('writes answer like the reference, request after request', () => {
  it('creates a category and a tag (201, Location, _links)', async () => {
    const category = await call(
      app,
      'categories',
      json('POST', { name: 'Music', description: 'Live music events', slug: 'music' }, admin),
    )
    await expectLike('create-category', category)
    ids.category = category.body.id
    expect(category.headers.get('location')).toBe(
      `http://127.0.0.1:8089/wp-json/calendar/events/v1/categories/${ids.category}`,
    )
    const tag = await call(
      app,
      'tags',
      json('POST', { name: 'Outdoor', description: 'Outside', slug: 'outdoor' }, admin),
    )
    await expectLike('create-tag', tag)
    ids.tag = tag.body.id
  })

  it('refuses boolean map flags on a venue, then creates the venue and an organizer', async () => {
    await expectLike(
      'err-venue-show-map-boolean',
      await call(app, 'venues', json('POST', { venue: 'Town Hall', show_map: true, show_map_link: true }, admin)),
    )
    const venue = await call(
      app,
      'venues',
      json(
        'POST',
        {
          venue: 'Town Hall',
          description: 'The old town hall',
          address: '1 Main Street',
          city: 'Springfield',
          country: 'United States',
          state: 'IL',
          zip: '62701',
          phone: '+1 555 0100',
          website: 'http://example.com/town-hall',
          show_map: 'true',
          show_map_link: 'true',
        },
        admin,
      ),
    )
    await expectLike('create-venue', venue)
    expect(venue.body.stateprovince).toBe('IL')
    ids.venue = venue.body.id
    const organizer = await call(
      app,
      'organizers',
      json(
        'POST',
        {
          organizer: 'Acme Events',
          description: 'We organise things',
          phone: '+1 555 0199',
          email: 'info@example.com',
          website: 'http://example.com/acme',
        },
        admin,
      ),
    )
    await expectLike('create-organizer', organizer)
    ids.organizer = organizer.body.id
  })

  it('creates the events of the capture', async () => {
    const full = await call(
      app,
      'events',
      json(
        'POST',
        {
          title: 'Summer Concert',
          description: '<p>An evening of <strong>live</strong> music.</p>',
          excerpt: 'Live music in the hall',
          start_date: '2026-11-25 19:00:00',
          end_date: '2026-11-25 22:30:00',
          timezone: 'America/Chicago',
          cost: '15',
          website: 'http://example.com/concert',
          venue: { id: ids.venue },
          organizer: [ids.organizer],
          categories: [ids.category],
          tags: [ids.tag],
          image: '6',
          featured: true,
          show_map: true,
          show_map_link: true,
        },
        admin,
      ),
    )
    // Almanac generates no resized copies of images (docs/compatibility.md §15), so the image object has no `sizes`.
    await expectLike('create-event-full', full, ['sizes'])
    expect(full.body).toMatchObject({ utc_start_date: '2026-11-26 01:00:00', timezone_abbr: 'CST', cost: '$15' })
    await expectLike(
      'create-event-plain',
      await call(
        app,
        'events',
        json(
          'POST',
          { title: 'Plain Meetup', start_date: '2026-11-27 09:00:00', end_date: '2026-11-27 10:00:00' },
          admin,
        ),
      ),
    )
    const allDay = await call(
      app,
      'events',
      json(
        'POST',
        {
          title: 'All Day Fair',
          description: 'Fair',
          all_day: true,
          start_date: '2026-11-30 00:00:00',
          end_date: '2026-11-30 23:59:59',
          cost: 'Free',
          categories: [ids.category],
        },
        admin,
      ),
    )
    await expectLike('create-event-allday', allDay)
    await expectLike(
      'create-event-4',
      await call(
        app,
        'events',
        json(
          'POST',
          {
            title: 'Workshop Four',
            start_date: '2026-12-05 14:00:00',
            end_date: '2026-12-05 16:00:00',
            tags: [ids.tag],
          },
          admin,
        ),
      ),
    )
    const gala = await call(
      app,
      'events',
      json(
        'POST',
        {
          title: 'Gala Five',
          start_date: '2026-12-13 18:00:00',
          end_date: '2026-12-13 23:00:00',
          venue: ids.venue,
          organizer: ids.organizer,
        },
        admin,
      ),
    )
    await expectLike('create-event-5', gala)
    ids.gala = gala.body.id
  })

  it('updates an event (it keeps its organizer, which the reference drops: docs/compatibility.md §4)', async () => {
    const updated = await call(
      app,
      `events/${ids.gala}`,
      json('POST', { title: 'Gala Five (updated)', cost: '20' }, admin),
    )
    await expectLike('event-update', updated, ['organizer'])
    expect(updated.body).toMatchObject({ title: 'Gala Five (updated)', cost: '$20' })
  })

  it('answers the error samples of the capture', async () => {
    const body = { title: 'Nope', start_date: '2026-11-25 10:00:00', end_date: '2026-11-25 11:00:00' }
    await expectLike('err-post-unauthenticated', await call(app, 'events', json('POST', body)))
    await expectLike(
      'err-post-bad-password',
      await call(app, 'events', json('POST', body, as('admin', 'not-the-password'))),
    )
    await expectLike(
      'err-post-bad-date',
      await call(
        app,
        'events',
        json('POST', { title: 'Bad date', start_date: 'not-a-date', end_date: 'also-not' }, admin),
      ),
    )
    await expectLike(
      'err-post-missing-title',
      await call(app, 'events', json('POST', { start_date: body.start_date, end_date: body.end_date }, admin)),
    )
    await expectLike('err-category-duplicate', await call(app, 'categories', json('POST', { name: 'Music' }, admin)))
  })

  it('creates a draft that only its readers see', async () => {
    const draft = await call(
      app,
      'events',
      json(
        'POST',
        { title: 'Draft Thing', status: 'draft', start_date: '2026-11-27 12:00:00', end_date: '2026-11-27 13:00:00' },
        admin,
      ),
    )
    await expectLike('create-event-draft', draft)
    await expectLike('err-event-draft-anonymous', await call(app, `events/${draft.body.id}`))
    await expectLike('event-draft-admin', await call(app, `events/${draft.body.id}`, { headers: admin }))
  })

  it('trashes an event, then answers 403 to reads and 410 to a second delete', async () => {
    const doomed = await call(
      app,
      'events',
      json('POST', { title: 'Short Lived', start_date: '2026-11-27 15:00:00', end_date: '2026-11-27 16:00:00' }, admin),
    )
    await expectLike('create-event-to-delete', doomed)
    await expectLike('event-delete', await call(app, `events/${doomed.body.id}`, { method: 'DELETE', headers: admin }))
    await expectLike('err-get-after-delete', await call(app, `events/${doomed.body.id}`))
    await expectLike('err-get-after-delete-admin', await call(app, `events/${doomed.body.id}`, { headers: admin }))
    await expectLike(
      'err-delete-twice',
      await call(app, `events/${doomed.body.id}`, { method: 'DELETE', headers: admin }),
    )
  })

  it('protects an event with a password set by an update', async () => {
    const secret = await call(
      app,
      'events',
      json(
        'POST',
        {
          title: 'Secret Party',
          description: 'Hidden details',
          excerpt: 'Hidden excerpt',
          start_date: '2026-12-05 20:00:00',
          end_date: '2026-12-05 23:00:00',
        },
        admin,
      ),
    )
    await expectLike('create-event-protected', secret)
    await call(app, `events/${secret.body.id}`, json('PATCH', { password: 's3cret' }, admin))
    await expectLike('err-event-password-protected-no-password', await call(app, `events/${secret.body.id}`))
    await expectLike(
      'err-event-password-protected-wrong-password',
      await call(app, `events/${secret.body.id}?password=wrong`),
    )
    await expectLike(
      'event-password-protected-with-password',
      await call(app, `events/${secret.body.id}?password=s3cret`),
    )
    await expectLike('events-list-with-protected', await call(app, 'events'), ['sizes'])
  })
})
