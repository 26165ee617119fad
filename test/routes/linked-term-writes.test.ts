import { readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { as, call, json, writableApp } from '../helpers.ts'

let app: Awaited<ReturnType<typeof writableApp>>
beforeEach(async () => {
  app = await writableApp('reference')
})
afterEach(async () => {
  await rm(app.dir, { recursive: true, force: true })
})

describe('venue and organizer writes', () => {
  it('creates a venue with the map shown by default, and reuses one of the same name (docs/compatibility.md §24)', async () => {
    const created = await call(
      app,
      'venues',
      json('POST', { venue: 'Harbour Hall', city: 'Singapore', country: 'Singapore' }, as('author')),
    )
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ venue: 'Harbour Hall', show_map: true, show_map_link: true, author: '3' })
    const twin = await call(
      app,
      'venues',
      json('POST', { venue: 'HARBOUR HALL', phone: '+65 6000 0001' }, as('author')),
    )
    expect(twin.status).toBe(201)
    expect(twin.body).toMatchObject({
      id: created.body.id,
      venue: 'Harbour Hall',
      phone: '+65 6000 0001',
      city: 'Singapore',
    })
  })

  it('never reuses a password-protected venue for a caller shown it without its name: the id would confirm a guess', async () => {
    // Venue writes take no password (as in the reference): the editor gives it one in its file.
    const secret = await call(app, 'venues', json('POST', { venue: 'Quiet Hall' }, as('editor')))
    const path = `venues/${(await readdir(join(app.content, 'venues'))).find((name) => name.startsWith('quiet-hall'))}`
    const text = await readFile(join(app.content, path), 'utf8')
    await writeFile(join(app.content, path), text.replace(/^---\n/, '---\npassword: hush\n'))
    await app.store.reload([path])
    expect((await call(app, `venues/${secret.body.id}`, { headers: as('contributor') })).body.venue).toEqual([])
    const guess = await call(app, 'venues', json('POST', { venue: 'quiet hall' }, as('contributor')))
    expect(guess.status).toBe(201)
    expect(guess.body.id).not.toBe(secret.body.id)
    const event = { title: 'Guess', start_date: '2027-01-05 10:00:00', end_date: '2027-01-05 11:00:00' }
    const inline = await call(
      app,
      'events',
      json('POST', { ...event, venue: { venue: 'Quiet Hall' } }, as('contributor')),
    )
    expect(inline.status).toBe(201)
    expect(inline.body.venue.id).not.toBe(secret.body.id)
    // Those who may change it see its name, and reuse it as before.
    const own = await call(app, 'venues', json('POST', { venue: 'QUIET HALL' }, as('editor')))
    expect(own.body.id).toBe(secret.body.id)
  })

  it('updates by slug, checking the slug exists and the caller may edit it (docs/compatibility.md §6)', async () => {
    expect(
      (await call(app, 'venues/by-slug/town-hall', json('PATCH', { city: 'Shelbyville' }, as('contributor')))).status,
    ).toBe(403)
    const updated = await call(app, 'venues/by-slug/town-hall', json('PATCH', { city: 'Shelbyville' }, as('editor')))
    expect(updated.body.city).toBe('Shelbyville')
    const unknown = await call(app, 'venues/by-slug/no-such-hall', json('PATCH', { city: 'X' }, as('editor')))
    expect(unknown.status).toBe(400)
    expect(Object.keys(unknown.body.data.params)).toEqual(['slug'])
  })

  it('trashes a venue, unlinking it from its events, and answers 410 the second time', async () => {
    const trashed = await call(app, 'venues/4', json('DELETE', {}, as('admin')))
    expect(trashed.body).toMatchObject({ status: 'trash', slug: 'town-hall__trashed' })
    expect((await call(app, 'events/7')).body.venue).toEqual([])
    expect((await call(app, 'events/11')).body.venue).toEqual([])
    expect((await call(app, 'venues/4', json('DELETE', {}, as('admin')))).body.code).toBe('venue-is-in-trash')
    expect((await call(app, 'venues/4')).body.code).toBe('venue-not-accessible')
    expect((await call(app, 'venues/4', { headers: as('admin') })).body.status).toBe('trash')
  })

  it('deletes an organizer for good with force=true, unlinking it (docs/compatibility.md §8)', async () => {
    const response = await call(app, 'organizers/5?force=true', json('DELETE', {}, as('admin')))
    expect(response.body).toMatchObject({ deleted: true, previous: { id: 5, organizer: 'Acme Events' } })
    expect((await call(app, 'events/7')).body.organizer).toEqual([])
    expect((await readdir(join(app.content, 'organizers'))).includes('acme-events.en.md')).toBe(false)
  })

  it('reads an unpublished venue only for editors and its author', async () => {
    const draft = await call(app, 'venues', json('POST', { venue: 'Secret Loft', status: 'draft' }, as('author')))
    const id = draft.body.id
    expect((await call(app, `venues/${id}`)).status).toBe(403)
    expect((await call(app, `venues/${id}`, { headers: as('author') })).status).toBe(200)
    expect((await call(app, `venues/${id}`, { headers: as('contributor') })).status).toBe(403)
    expect((await call(app, `venues/${id}`, { headers: as('editor') })).status).toBe(200)
  })
})

describe('category and tag writes', () => {
  it('lets authors manage categories but not tags; contributors neither, as in the reference', async () => {
    expect((await call(app, 'categories', json('POST', { name: 'Dance' }, as('author')))).status).toBe(201)
    expect((await call(app, 'tags', json('POST', { name: 'Indoor' }, as('author')))).status).toBe(403)
    expect((await call(app, 'categories', json('POST', { name: 'Film' }, as('contributor')))).status).toBe(403)
    expect((await call(app, 'tags', json('POST', { name: 'Indoor' }, as('editor')))).status).toBe(201)
  })

  it('creates a child category, with its parent’s slug in its url', async () => {
    const child = await call(app, 'categories', json('POST', { name: 'Jazz', parent: 2 }, as('editor')))
    expect(child.body).toMatchObject({ parent: 2, url: 'http://127.0.0.1:8089/events/category/music/jazz/' })
    expect(child.body.urls.up).toBe('http://127.0.0.1:8089/wp-json/calendar/events/v1/categories/2')
    const cycle = await call(app, 'categories/2', json('PATCH', { parent: child.body.id }, as('editor')))
    expect(cycle.status).toBe(400)
  })

  it('refuses a parent on a tag, and a slug that another term holds', async () => {
    const parent = await call(app, 'tags', json('POST', { name: 'Indoor', parent: 3 }, as('editor')))
    expect(parent.body).toEqual({
      code: 'rest_taxonomy_not_hierarchical',
      message: 'Cannot set parent term, taxonomy is not hierarchical.',
      data: { status: 400 },
    })
    const clash = await call(app, 'tags', json('POST', { name: 'Indoor', slug: 'indoor' }, as('editor')))
    const taken = await call(app, `tags/${clash.body.id}`, json('PATCH', { slug: 'outdoor' }, as('editor')))
    expect(taken.status).toBe(400)
    expect(taken.body).toEqual({
      code: 'duplicate_term_slug',
      message: 'The slug &#8220;outdoor&#8221; is already in use by another term.',
      data: { status: 400 },
    })
  })

  it('deletes a term for good and takes it out of every event', async () => {
    const response = await call(app, 'tags/3', json('DELETE', {}, as('editor')))
    expect(response.body).toMatchObject({ id: 3, name: 'Outdoor', count: 2 })
    expect(response.body._links).toBeUndefined()
    expect((await call(app, 'events/7')).body.tags).toEqual([])
    expect((await call(app, 'tags/3')).status).toBe(400)
  })

  it('creates missing terms named in an event, for those who may', async () => {
    const made = await call(app, 'events/8', json('PATCH', { categories: ['Music', 'Workshops'] }, as('admin')))
    expect(made.body.categories.map((c: { name: string }) => c.name)).toEqual(['Music', 'Workshops'])
    const skipped = await call(
      app,
      'events',
      json(
        'POST',
        { title: 'Mine', start_date: '2027-01-01 10:00:00', end_date: '2027-01-01 11:00:00', categories: 'Brand New' },
        as('contributor'),
      ),
    )
    expect(skipped.body.categories).toEqual([])
  })
})
