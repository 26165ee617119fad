import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { call, writableApp } from '../helpers.ts'

// test/fixtures/visibility: venue 102 and organizer 202 are published but password-protected;
// event 401 is public and links them (organizer 202 first); event 402 is protected itself.
const VENUE_SECRETS = ['Hiddenlane', 'Cloakton', 'Venuesecret', '0777', 'lockedhall', 'Locked Hall', '103.8']
const ORGANIZER_SECRETS = ['orgsecret', 'Orgsecret', '0888', 'Locked Org']

let app: Awaited<ReturnType<typeof writableApp>>
beforeAll(async () => {
  app = await writableApp('visibility')
  expect(app.problems).toEqual([])
})
afterAll(() => rm(app.dir, { recursive: true, force: true }))

function expectNone(text: string, secrets: string[], where: string) {
  for (const secret of secrets) expect(text, `${where} shows ${secret}`).not.toContain(secret)
}

describe('password-protected venues and organizers', () => {
  it('read singly without the password, carry no json_ld and none of their protected fields', async () => {
    const venue = await call(app, 'venues/102')
    expect(venue.status).toBe(200)
    expect(venue.body).not.toHaveProperty('json_ld')
    expectNone(venue.text, VENUE_SECRETS, 'venues/102')
    const bySlug = await call(app, 'venues/by-slug/locked-hall')
    expect(bySlug.body).not.toHaveProperty('json_ld')
    expectNone(bySlug.text, VENUE_SECRETS, 'venues/by-slug/locked-hall')
    const organizer = await call(app, 'organizers/202')
    expect(organizer.status).toBe(200)
    expect(organizer.body).not.toHaveProperty('json_ld')
    expectNone(organizer.text, ORGANIZER_SECRETS, 'organizers/202')
  })

  it('embedded in a public event, carry no json_ld, and the event JSON-LD names them false', async () => {
    const event = await call(app, 'events/401')
    expect(event.status).toBe(200)
    expect(event.body.venue.id).toBe(102)
    expect(event.body.venue).not.toHaveProperty('json_ld')
    expect(event.body.organizer[0].id).toBe(202)
    expect(event.body.organizer[0]).not.toHaveProperty('json_ld')
    expect(event.body.json_ld.location).toBe(false)
    expect(event.body.json_ld.organizer).toBe(false)
    expectNone(event.text, [...VENUE_SECRETS, ...ORGANIZER_SECRETS], 'events/401')
  })

  it('open with their password for that request only, and the opened answer is not served to the next caller', async () => {
    const opened = await call(app, 'venues/102?password=venue-pw')
    expect(opened.body.address).toBe('7 Hiddenlane Street')
    const openedEvent = await call(app, 'events/401?password=venue-pw')
    expect(openedEvent.body.venue.address).toBe('7 Hiddenlane Street')
    expectNone((await call(app, 'venues/102')).text, VENUE_SECRETS, 'venues/102 after an opened read')
    expectNone((await call(app, 'events/401')).text, VENUE_SECRETS, 'events/401 after an opened read')
    expectNone((await call(app, 'events')).text, VENUE_SECRETS, 'events after an opened read')
  })

  it('are blanked in lists of venues, organizers and events', async () => {
    expectNone((await call(app, 'venues')).text, VENUE_SECRETS, 'venues')
    expectNone((await call(app, 'organizers')).text, ORGANIZER_SECRETS, 'organizers')
    expectNone((await call(app, 'events')).text, [...VENUE_SECRETS, ...ORGANIZER_SECRETS], 'events')
  })

  it('an unprotected venue keeps its json_ld in a single read, and the event names it as its location', async () => {
    const venue = await call(app, 'venues/101')
    expect(venue.body.json_ld['@type']).toBe('Place')
    const event = await call(app, 'events/406')
    expect(event.body.json_ld.location.name).toBe('Open Hall')
    expect(event.body.json_ld.organizer.name).toBe('Open Org')
  })
})
