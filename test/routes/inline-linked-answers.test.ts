import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { as, call, json, type Login, writableApp } from '../helpers.ts'
import { snapshot } from './writes-tree.ts'

// The answers to event writes with bad inline venues and organizers, pinned as they were before the
// inline entry was parsed once (at argument time) instead of twice: the codes, the messages, the
// `data.params` keys, which of two errors wins (the event's own checks come before a bad field of an
// inline entry), and the files written. Cases run in order on one tree: slugs count up.

const EVENT = { title: 'Inline', start_date: '2026-12-20 18:00:00', end_date: '2026-12-20 23:00:00' }

/** WordPress's 400 naming the failed parameters, as every case below sends it. */
function invalid(...names: string[]) {
  const params = Object.fromEntries(names.map((name) => [name, 'Invalid parameter.']))
  const message = `Invalid parameter(s): ${names.join(', ')}`
  return { code: 'rest_invalid_param', message, data: { status: 400, params, details: [] } }
}
const NOT_AS_OTHERS = {
  code: 'rest_cannot_edit_others',
  message: 'Sorry, you are not allowed to create posts as this user.',
  data: { status: 403 },
}
const NO_VENUE = {
  code: 'could-not-create-venue',
  message: 'The venue could not be created from the provided data',
  data: { status: 400 },
}
const tooMany = (field: string) => {
  const message = `${field} takes at most 100 items.`
  return {
    code: 'rest_invalid_param',
    message: `Invalid parameter(s): ${field}`,
    data: { status: 400, params: { [field]: message }, details: [] },
  }
}

type Case = [name: string, body: Record<string, unknown>, status: number, answer: unknown, login?: Login]

const REFUSED: Case[] = [
  ['a bad field of an inline venue', { venue: { venue: 'Hall', website: 'not a url' } }, 400, invalid('venue')],
  ['an inline venue without a name', { venue: { city: 'X' } }, 400, invalid('venue')],
  ['an inline venue named ""', { venue: { venue: '' } }, 400, invalid('venue')],
  ['an inline venue named by a number', { venue: { venue: 5 } }, 400, invalid('venue')],
  ['{id} of no venue', { venue: { id: 999999 } }, 400, invalid('venue')],
  ['the id of no venue', { venue: 999999 }, 400, invalid('venue')],
  ["an organizer's id as the venue", { venue: 5 }, 400, invalid('venue')],
  ['two inline venues', { venue: [{ venue: 'A' }, { venue: 'B' }] }, 400, NO_VENUE],
  ['two venue ids', { venue: [4, 4] }, 400, NO_VENUE],
  ['a venue as text', { venue: 'abc' }, 400, invalid('venue')],
  ['a venue as a boolean', { venue: true }, 400, invalid('venue')],
  ['an inline venue with a bad status', { venue: { venue: 'X', status: 'nonsense' } }, 400, invalid('venue')],
  ['an inline venue with a boolean map flag', { venue: { venue: 'X', show_map: true } }, 400, invalid('venue')],
  ['an inline venue with an unknown image', { venue: { venue: 'X', image: 'nope.png' } }, 400, invalid('venue')],
  ['an inline venue with a bad date', { venue: { venue: 'X', date: 'garbage' } }, 400, invalid('venue')],
  ['an inline venue by no user', { venue: { venue: 'X', author: 999999 } }, 400, invalid('venue')],
  ["a contributor's inline venue by another", { venue: { venue: 'X', author: 1 } }, 403, NOT_AS_OTHERS, 'contributor'],
  ['ids and an unnamed organizer', { organizer: [5, { organizer: '' }] }, 400, invalid('organizer')],
  [
    'ids and an organizer with a bad field',
    { organizer: [5, { organizer: 'X', website: 'bad' }] },
    400,
    invalid('organizer'),
  ],
  [
    'an organizer by another, then a bad one (the first wins)',
    {
      organizer: [
        { organizer: 'X', author: 1 },
        { organizer: 'Y', website: 'bad' },
      ],
    },
    403,
    NOT_AS_OTHERS,
    'contributor',
  ],
  [
    'a bad organizer, then one by another (the first wins)',
    {
      organizer: [
        { organizer: 'Y', website: 'bad' },
        { organizer: 'X', author: 1 },
      ],
    },
    400,
    invalid('organizer'),
    'contributor',
  ],
  ['a CSV of organizers naming no one', { organizer: '5,999999' }, 400, invalid('organizer')],
  [
    '101 organizers, one unnamed',
    { organizer: Array.from({ length: 101 }, (_, i) => (i === 50 ? { organizer: '' } : 5)) },
    400,
    invalid('organizer'),
  ],
  ['101 organizer ids', { organizer: Array.from({ length: 101 }, () => 5) }, 400, tooMany('organizer')],
  ['a CSV of 100 ids and a trailing comma', { organizer: `${'5,'.repeat(100)}` }, 400, tooMany('organizer')],
  [
    'no title and a bad field of an inline venue',
    { title: '', venue: { venue: 'H', website: 'bad' } },
    400,
    invalid('title'),
  ],
  ['no title and an unnamed inline venue', { title: '', venue: {} }, 400, invalid('title', 'venue')],
  [
    'an end before the start and a bad inline venue',
    { end_date: '2026-12-19 10:00:00', venue: { venue: 'H', website: 'bad' } },
    400,
    invalid('end_date'),
  ],
  [
    'another author and a bad inline venue',
    { author: 1, venue: { venue: 'H', website: 'bad' } },
    403,
    NOT_AS_OTHERS,
    'contributor',
  ],
]

let app: Awaited<ReturnType<typeof writableApp>>
beforeAll(async () => {
  app = await writableApp('reference')
})
afterAll(async () => {
  await rm(app.dir, { recursive: true, force: true })
})

/** The answer to one write and the files it changed. */
async function write(method: string, path: string, body: unknown, login: Login = 'admin') {
  const before = await snapshot(app.content)
  const response = await call(app, path, json(method, body, as(login)))
  const after = await snapshot(app.content)
  const changed = Object.keys(after).filter((file) => after[file] !== before[file])
  return { status: response.status, body: response.body, changed: changed.sort() }
}

describe('event writes with inline venues and organizers: the answers', () => {
  it.each(REFUSED)('refuses %s with the same answer and writes nothing', async (_name, body, status, answer, login) => {
    const response = await write('POST', 'events', { ...EVENT, ...body }, login)
    expect(response).toEqual({ status, body: answer, changed: [] })
  })

  it('answers an update of a missing event 404 before looking at a bad inline venue', async () => {
    const response = await write('PUT', 'events/999999', { venue: { venue: 'H', website: 'bad' } })
    expect(response.status).toBe(404)
    expect(response.body.code).toBe('rest-event-not-found')
  })

  it('refuses an update with a bad or unnamed inline venue', async () => {
    for (const venue of [{ venue: 'H', website: 'bad' }, { city: 'H' }])
      expect(await write('PUT', 'events/8', { venue })).toEqual({ status: 400, body: invalid('venue'), changed: [] })
  })

  it('accepts [] and "" as no venue, and ids and objects mixed as organizers, writing only what they name', async () => {
    const links = (response: { body: { venue: unknown; organizer: { organizer: string }[] } }) => [
      response.body.venue,
      response.body.organizer.map((organizer) => organizer.organizer),
    ]
    const none = await write('POST', 'events', { ...EVENT, venue: [] })
    expect([none.status, ...links(none), none.changed]).toEqual([201, [], [], ['events/inline.en.md']])
    const empty = await write('POST', 'events', { ...EVENT, venue: '' })
    expect([empty.status, ...links(empty), empty.changed]).toEqual([201, [], [], ['events/inline-2.en.md']])
    const mixed = await write('POST', 'events', { ...EVENT, organizer: [5, { organizer: 'New Org' }, '5', { id: 5 }] })
    expect([mixed.status, mixed.body.organizer.map((o: { id: number }) => o.id).length, mixed.changed]).toEqual([
      201,
      2,
      ['events/inline-3.en.md', 'organizers/new-org.en.md'],
    ])
    const solo = await write('POST', 'events', { ...EVENT, organizer: { organizer: 'Solo' } })
    expect([solo.status, solo.changed]).toEqual([201, ['events/inline-4.en.md', 'organizers/solo.en.md']])
    const cleared = await write('PUT', 'events/8', { venue: '', organizer: [] })
    expect([cleared.status, ...links(cleared), cleared.changed]).toEqual([200, [], [], ['events/plain-meetup.en.md']])
  })

  it("creates a contributor's inline venue as a draft, and writes onto a venue of the same name", async () => {
    const fresh = await write('POST', 'events', { ...EVENT, venue: { venue: 'Fresh Hall', city: 'KL' } }, 'contributor')
    expect([fresh.status, fresh.changed]).toEqual([201, ['events/inline-5.en.md', 'venues/fresh-hall.en.md']])
    const venue = await call(app, `venues/${fresh.body.venue.id}`, { headers: as('admin') })
    expect([venue.body.status, venue.body.city]).toEqual(['draft', 'KL'])
    const reused = await write('POST', 'events', { ...EVENT, venue: { venue: 'town hall', phone: '1' } })
    expect([reused.status, reused.body.venue.venue, reused.body.venue.phone]).toEqual([201, 'Town Hall', '1'])
    expect(reused.changed).toEqual(['events/inline-6.en.md', 'venues/town-hall.en.md'])
  })
})
