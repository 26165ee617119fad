import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { as, call, writableApp, type Login } from '../helpers.ts'

// test/fixtures/visibility (users: admin 1, editor 2, author 3, contributor 4, subscriber 5).
// Events: 401 public (links protected venue 102, organizers 202 and 201), 402 public but protected
// (venue 101, organizer 201, category 302, tag 311, featured), 403 the author's draft (venue 103),
// 404 the contributor's pending event (venue 104, organizer 203), 405 the editor's private event,
// 406 public, 407 trashed, 408 scheduled (future), 409 public (links the author's draft venue 103
// and the editor's private organizer 203). Venues: 101 and 105 public, 102 protected,
// 103 the author's draft, 104 the contributor's draft. Organizers: 201 public, 202 protected,
// 203 the editor's private one. Category 302 and tag 311 are used only by events that are not public.

let app: Awaited<ReturnType<typeof writableApp>>
beforeAll(async () => {
  app = await writableApp('visibility')
  expect(app.problems).toEqual([])
})
afterAll(() => rm(app.dir, { recursive: true, force: true }))

async function ids(path: string, login?: Login): Promise<number[]> {
  const response = await call(app, path, login ? { headers: as(login) } : {})
  expect(response.status, `${path}: ${response.text}`).toBe(200)
  const list =
    response.body.events ??
    response.body.venues ??
    response.body.organizers ??
    response.body.categories ??
    response.body.tags
  return list.map((record: { id: number }) => record.id).sort()
}

describe('lists show each role what it may read (WordPress perm=readable)', () => {
  it.each([
    [undefined, [401, 402, 406, 409]],
    ['subscriber', [401, 402, 406, 409]],
    ['contributor', [401, 402, 404, 406, 409]],
    ['author', [401, 402, 403, 406, 409]],
    ['editor', [401, 402, 403, 404, 405, 406, 408, 409]],
    ['admin', [401, 402, 403, 404, 405, 406, 408, 409]],
  ] as const)('events as %s', async (login, expected) => {
    expect(await ids('events', login)).toEqual(expected)
  })

  it.each([
    [undefined, [101, 102, 105]],
    ['contributor', [101, 102, 104, 105]],
    ['author', [101, 102, 103, 105]],
    ['editor', [101, 102, 103, 104, 105]],
  ] as const)('venues as %s', async (login, expected) => {
    expect(await ids('venues', login)).toEqual(expected)
  })

  it.each([
    [undefined, [201, 202]],
    ['contributor', [201, 202]],
    ['author', [201, 202]],
    ['editor', [201, 202, 203]],
  ] as const)('organizers as %s', async (login, expected) => {
    expect(await ids('organizers', login)).toEqual(expected)
  })

  it('an explicit status shows a contributor or an author only their own records in it', async () => {
    expect(await ids('events?status=draft', 'author')).toEqual([403])
    expect(await ids('events?status=draft,pending,private,future', 'contributor')).toEqual([404])
    expect(await ids('events?status=pending', 'author')).toEqual([])
    expect(await ids('venues?status=draft', 'contributor')).toEqual([104])
    expect(await ids('events?status=draft,pending,private', 'editor')).toEqual([403, 404, 405])
  })

  it('include returns only what the caller may read', async () => {
    expect(await ids('events?include=403,404,405,406', 'contributor')).toEqual([404, 406])
    expect(await ids('events?include=403,404,405,406', 'author')).toEqual([403, 406])
  })
})

describe('a protected event matches nothing its blanking hides', () => {
  it('search finds it by its title only, never by its excerpt or description, nor by a prefix of them', async () => {
    expect(await ids('events?search=Locked')).toEqual([402])
    expect(await ids('events?search=confidential')).toEqual([])
    expect(await ids('events?search=Galasecret')).toEqual([])
    expect(await ids('events?search=Galasec')).toEqual([])
    expect(await ids('events?search=gala%20conf')).toEqual([])
  })

  it('venue, organizer, category, tag and featured filters do not match it', async () => {
    expect(await ids('events?venue=101')).toEqual([406])
    expect(await ids('events?organizer=201')).toEqual([401, 406, 409])
    expect(await ids('events?categories=302')).toEqual([])
    expect(await ids('events?tags=311')).toEqual([])
    expect(await ids('events?featured=true')).toEqual([])
  })

  it('reverse lookups of it return nothing linked', async () => {
    for (const route of ['venues', 'organizers', 'categories', 'tags'])
      expect(await ids(`${route}?event=402`), route).toEqual([])
    expect(await ids('categories?post=402')).toEqual([])
  })

  it('its password opens its links, as it opens its list entry', async () => {
    expect(await ids('venues?event=402&password=event-pw')).toEqual([101])
    expect(await ids('events?venue=101&password=event-pw')).toEqual([402, 406])
    expect(await ids('events?venue=101')).toEqual([406])
  })

  it('a protected venue matches no search and no geolocation', async () => {
    expect(await ids('venues?search=Hiddenlane')).toEqual([])
    expect(await ids('venues?search=Cloakton')).toEqual([])
    expect(await ids('venues?search=0777')).toEqual([])
    expect(await ids('organizers?search=orgsecret')).toEqual([])
    expect(await ids('events?geoloc_lat=1.3&geoloc_lng=103.8')).toEqual([])
  })
})

describe('events a caller may not read reveal nothing through ?event=', () => {
  it.each(['venues', 'organizers', 'categories', 'tags'])(
    '%s?event= of a draft, pending, private, future or trashed event is empty for anonymous callers',
    async (route) => {
      for (const id of [403, 404, 405, 407, 408])
        expect(await ids(`${route}?event=${id}`), `${route}?event=${id}`).toEqual([])
    },
  )

  it('a subscriber or a contributor learns nothing of others’ unpublished events, but the author does of their own', async () => {
    expect(await ids('organizers?event=403', 'subscriber')).toEqual([])
    expect(await ids('organizers?event=403', 'contributor')).toEqual([])
    expect(await ids('organizers?event=403', 'author')).toEqual([201])
    expect(await ids('venues?event=403', 'author')).toEqual([103])
    expect(await ids('categories?event=403&hide_empty=false', 'editor')).toEqual([302])
    expect(await ids('categories?event=403&hide_empty=false')).toEqual([])
  })

  it('has_events counts only events the caller may see', async () => {
    // 105 hosts only a private, a scheduled and a trashed event.
    expect(await ids('venues?has_events=true')).toEqual([101, 102])
    expect(await ids('venues?has_events=false')).toEqual([105])
    expect(await ids('venues?has_events=true', 'editor')).toEqual([101, 102, 103, 105])
    expect(await ids('venues?has_events=false', 'editor')).toEqual([104])
  })

  it('term counts and hide_empty count only published events that are not protected', async () => {
    expect(await ids('categories')).toEqual([301])
    expect(await ids('tags')).toEqual([])
    const hush = await call(app, 'categories/302')
    expect(hush.body.count).toBe(0)
    const music = await call(app, 'categories/301')
    expect(music.body.count).toBe(3)
  })
})

describe('a public event embeds only the linked records the caller may read', () => {
  const embeds = async (login?: Login) => {
    const { body } = await call(app, 'events/409', login ? { headers: as(login) } : {})
    return {
      venue: Array.isArray(body.venue) ? null : body.venue.id,
      organizers: body.organizer.map((o: { id: number }) => o.id),
    }
  }

  it.each([
    [undefined, { venue: null, organizers: [201] }],
    ['subscriber', { venue: null, organizers: [201] }],
    ['contributor', { venue: null, organizers: [201] }],
    ['author', { venue: 103, organizers: [201] }],
    ['editor', { venue: 103, organizers: [203, 201] }],
  ] as const)('as %s', async (login, expected) => {
    expect(await embeds(login)).toEqual(expected)
  })

  it('a venue or organizer filter by a record the caller may not read matches nothing, so the hidden link does not show', async () => {
    expect(await ids('events?venue=103')).toEqual([])
    expect(await ids('events?organizer=203')).toEqual([])
    expect(await ids('events?venue=103', 'author')).toEqual([403, 409])
    expect(await ids('events?organizer=203', 'editor')).toEqual([404, 409])
  })

  it('in lists too, where an anonymous list shows none of their text', async () => {
    const anonymous = await call(app, 'events')
    expect(anonymous.text).not.toContain('Authordraft')
    expect(anonymous.text).not.toContain('Privateorg')
    const editor = await call(app, 'events', { headers: as('editor') })
    expect(editor.text).toContain('Privateorg')
    expect((await call(app, 'events')).text).not.toContain('Privateorg')
  })
})
