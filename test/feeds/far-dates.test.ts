import { rm } from 'node:fs/promises'
import { afterEach, describe, expect, it } from 'vitest'
import { as, call, json, longestBlock, writableApp } from '../helpers.ts'
import { instancesOf, parseFeed } from './parse.ts'

// An author may date an event in year 1, and an administrator move one occurrence there. A feed's VTIMEZONE read
// its zone every 12 hours across the whole span of its events: 19.8 s of event loop for every anonymous feed
// after such an event, 0.1 s even for a small calendar's. A zone is now read over windows around the instants the
// feed's events use (a plain event's start and end, a series' whole span), every 3 days. And the VTIMEZONE of such a
// year was unreadable: ical.js wrote its DTSTART as `1-01-01T00:03:58`.

let app: Awaited<ReturnType<typeof writableApp>> | undefined
afterEach(async () => {
  if (app) await rm(app.dir, { recursive: true, force: true })
  app = undefined
})

describe('an event dated in year 1', () => {
  it('leaves every feed quick, and its instants as the JSON shows them', async () => {
    app = await writableApp('series')
    const body = {
      title: 'Long',
      start_date: '0001-01-01 00:00:00',
      end_date: '2026-12-01 00:00:00',
      timezone: 'America/New_York',
    }
    const created = await call(app, 'events', json('POST', body, as('author')))
    expect(created.status).toBe(201)
    await call(app, `events/${created.body.id}`, json('POST', { status: 'publish' }, as('admin')))
    const [blocked, feed] = await longestBlock(() => call(app!, 'events.ics'))
    expect(feed.status).toBe(200)
    expect(blocked).toBeLessThan(1_000)
    const one = await call(app, `events/${created.body.id}`)
    const instance = instancesOf(parseFeed(feed.text)).find((each) => each.uid.startsWith(`${created.body.id}@`))!
    // ical.js reads a year under 100 as 1900 and more (Date.UTC's rule), so the start is checked as written.
    expect(feed.text).toContain('DTSTART;TZID=America/New_York:00010101T000000')
    expect(feed.text).toMatch(/BEGIN:VTIMEZONE\r\nTZID:America\/New_York\r\nBEGIN:STANDARD\r\nDTSTART:0001/)
    expect(new Date(instance.end).toISOString()).toBe(`${one.body.utc_end_date.replace(' ', 'T')}.000Z`)
  }, 60_000)
})

/** A published event from 10:00 to 12:00 local on `day` in `timezone`, made by an administrator in a fresh app. */
async function oldTown(day: string, timezone: string) {
  const made = await writableApp('series')
  app = made
  const body = { title: 'Old Town', start_date: `${day} 10:00:00`, end_date: `${day} 12:00:00`, timezone }
  const created = await call(made, 'events', json('POST', { ...body, status: 'publish' }, as('admin')))
  expect(created.status, created.text).toBe(201)
  return { app: made, created }
}

describe('an event in a zone whose offset then had seconds (local mean time)', () => {
  it("writes the offset to the second, so the feed's instant is the JSON's", async () => {
    const { app, created } = await oldTown('1890-03-01', 'Asia/Kuala_Lumpur')
    // Kuala Lumpur kept Singapore's mean time, +6:55:25, until 1905: 10:00 there was 03:04:35 UTC.
    expect(created.body.utc_start_date).toBe('1890-03-01 03:04:35')
    const feed = await call(app, 'events.ics?start_date=1890-01-01')
    expect(feed.status).toBe(200)
    expect(feed.text).toContain('DTSTART;TZID=Asia/Kuala_Lumpur:18900301T100000')
    const zone = /BEGIN:VTIMEZONE\r\nTZID:Asia\/Kuala_Lumpur\r\n[\s\S]*?END:VTIMEZONE/.exec(feed.text)?.[0] ?? ''
    expect(zone).toContain('TZOFFSETTO:+065525')
    expect(zone).not.toMatch(/TZOFFSET(FROM|TO):\+0655\r\n/)
  }, 60_000)
})

describe("an event's JSON-LD in a zone whose offset then had seconds", () => {
  it('gives the instant in UTC, as no ISO 8601 offset holds seconds', async () => {
    const { app, created } = await oldTown('1960-03-01', 'Africa/Monrovia')
    // Monrovia kept -0:44:30 until 1972.
    expect(created.body.utc_start_date).toBe('1960-03-01 10:44:30')
    const one = await call(app, `events/${created.body.id}`)
    expect(one.text).toContain('"startDate":"1960-03-01T10:44:30Z"')
    expect(one.text).toContain('"endDate":"1960-03-01T12:44:30Z"')
    const plain = { title: 'New Town', start_date: '2026-03-01 10:00:00', end_date: '2026-03-01 12:00:00' }
    const now = await call(app, 'events', json('POST', { ...plain, timezone: 'Africa/Monrovia' }, as('admin')))
    expect((await call(app, `events/${now.body.id}`)).text).toContain('"startDate":"2026-03-01T10:00:00+00:00"')
  }, 60_000)
})
