import { rm } from 'node:fs/promises'
import { afterAll, describe, expect, it } from 'vitest'
import { as, call, fixtureApp, json, writableApp } from '../helpers.ts'
import { instancesOf, parseFeed } from './parse.ts'

// What a subscriber relies on besides the events themselves (docs/feeds.md): the calendar's properties, one
// VTIMEZONE per zone used, RFC 5545's lines, nothing private, ETags, and a UID that survives a move.

const MARKERS = ['MARKER-DRAFT', 'MARKER-PRIVATE', 'MARKER-PROTECTED', 'MARKER-VENUE-DRAFT', 'hunter2']
const FEEDS = [
  'events.ics',
  'events?ical=1',
  'events.ics?ml_language=ms',
  'events.ics?start_date=2020-01-01',
  'categories/2/events.ics',
  'venues/10/events.ics',
  'events/20.ics',
  'events/30.ics',
  'events/43.ics',
]
const cleanup: string[] = []
afterAll(async () => {
  for (const dir of cleanup) await rm(dir, { recursive: true, force: true })
})

describe('the whole-calendar feed', () => {
  it('has the calendar properties a subscriber needs, in lines of at most 75 octets ending CRLF', async () => {
    const app = await fixtureApp('feeds')
    const feed = await call(app, 'events.ics')
    const lines = feed.text.split('\r\n')
    expect(lines.at(-1)).toBe('')
    expect(lines.slice(0, -1).every((line) => Buffer.byteLength(line) <= 75 && !line.includes('\n'))).toBe(true)
    const calendar = parseFeed(feed.text)
    for (const [name, value] of [
      ['version', '2.0'],
      ['method', 'PUBLISH'],
      ['calscale', 'GREGORIAN'],
      ['x-wr-timezone', 'UTC'],
      ['x-published-ttl', 'PT1H'],
    ])
      expect(String(calendar.getFirstPropertyValue(name)), name).toBe(value)
    expect(feed.text).toContain('REFRESH-INTERVAL;VALUE=DURATION:PT1H\r\n')
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBeTruthy()
  })

  it('has one VTIMEZONE for each zone a timed event uses, and none for all-day events', async () => {
    const app = await fixtureApp('feeds')
    const calendar = parseFeed((await call(app, 'events.ics')).text)
    const zones = calendar.getAllSubcomponents('vtimezone').map((zone) => zone.getFirstPropertyValue('tzid'))
    expect(zones).toEqual(['America/New_York', 'Asia/Kolkata', 'Europe/London'])
    const london = calendar.getAllSubcomponents('vtimezone')[2]!
    const changes = london.getAllSubcomponents().map((part) => String(part.getFirstPropertyValue('dtstart')))
    // The span reaches the horizon of the open rules' window: every change until then is listed.
    expect(changes).toContain('2026-10-25T02:00:00')
    expect(changes).toContain('2027-03-28T01:00:00')
  })

  it('writes all-day events as DATE values, never UTC midnight', async () => {
    const app = await fixtureApp('feeds')
    const feed = (await call(app, 'events.ics')).text
    expect(feed).toContain('DTSTART;VALUE=DATE:20261205\r\nDTEND;VALUE=DATE:20261207\r\n')
    expect(feed).toContain('RECURRENCE-ID;VALUE=DATE:20270306\r\n')
    expect(feed).not.toMatch(/DTSTART:\d{8}T000000Z/)
  })

  it('gives LOCATION with GEO, ORGANIZER, CATEGORIES, and a DESCRIPTION in plain text', async () => {
    const app = await fixtureApp('feeds')
    const calendar = parseFeed((await call(app, 'events/20.ics')).text)
    const vevent = calendar.getFirstSubcomponent('vevent')!
    expect(vevent.getFirstPropertyValue('location')).toBe(
      'Community Hall, Main Room\n1 High Street, London, N1 9AA, United Kingdom',
    )
    expect(vevent.getFirstPropertyValue('geo')).toEqual([51.5362, -0.1033])
    expect(vevent.getFirstPropertyValue('organizer')).toBe('mailto:team@river.example')
    expect(vevent.getFirstProperty('organizer')!.getParameter('cn')).toBe('River Arts Collective')
    expect(vevent.getFirstPropertyValue('categories')).toBe('Music')
    const description = String(vevent.getFirstPropertyValue('description'))
    expect(description).toContain('A single evening of carols with the choir (https://choir.example/)')
    expect(description).toContain('日本語のテキスト.\n\n- mulled wine\n- mince pies')
    expect(description).not.toMatch(/\*\*|<p>/)
  })
})

describe('event status in feeds', () => {
  it('gives STATUS and the reason in the feed language, the online address as LOCATION, and cancels one occurrence', async () => {
    const app = await fixtureApp('feeds')
    const vevent = async (path: string, uid: string, recurrence = '') =>
      instancesOf(parseFeed((await call(app, path)).text)).find(
        (one) => one.uid === uid && one.recurrence === recurrence,
      )!
    expect(await vevent('events/25.ics', '25@127.0.0.1')).toMatchObject({
      status: 'CANCELLED',
      description: 'High winds are forecast.\n\nFireworks over the harbour at midnight.',
    })
    expect((await vevent('events/25.ics?ml_language=ms', '25@127.0.0.1')).description).toBe(
      'Angin kencang dijangka.\n\nBunga api di atas pelabuhan.',
    )
    expect((await vevent('events/26.ics', '26@127.0.0.1')).status).toBe('TENTATIVE')
    expect(await vevent('events/27.ics', '27@127.0.0.1')).toMatchObject({
      status: 'CONFIRMED',
      location: 'https://stream.example/lecture',
    })
    const mixed = await vevent('events/28.ics', '28@127.0.0.1')
    expect(mixed.location).toMatch(/^Community Hall/)
    expect(mixed.description).toBe('https://meet.example/workshop\n\nIn the hall or online.')
    expect(await vevent('events/30.ics', '30@127.0.0.1', '2026-11-03 09:00:00')).toMatchObject({
      status: 'CANCELLED',
      description: 'The teacher is ill.\n\nStretch every Tuesday morning.',
    })
    expect((await vevent('events/30.ics', '30@127.0.0.1', '2026-11-10 09:00:00')).status).toBe('CONFIRMED')
  })

  it('filters a feed by status as the list does', async () => {
    const app = await fixtureApp('feeds')
    const feed = (await call(app, 'events.ics?event_status=cancelled')).text
    const uids = new Set(instancesOf(parseFeed(feed)).map((one) => one.uid))
    expect([...uids].sort()).toEqual(['25@127.0.0.1', '30@127.0.0.1'])
  })
})

describe('what a feed leaves out', () => {
  it('no feed shows a draft, private or password-protected event, or a draft venue, to anyone', async () => {
    const app = await writableApp('feeds')
    cleanup.push(app.dir)
    for (const path of FEEDS)
      for (const headers of [{}, as('admin')]) {
        const feed = await call(app, path, { headers })
        expect(feed.status, path).toBe(200)
        for (const marker of MARKERS) expect(feed.text, `${path} ${marker}`).not.toContain(marker)
      }
  })

  it('answers a single feed of an event no anonymous caller may read as its JSON read does', async () => {
    const app = await fixtureApp('feeds')
    expect((await call(app, 'events/40.ics')).status).toBe(403)
    expect((await call(app, 'events/41.ics')).status).toBe(403)
    expect((await call(app, 'events/42.ics')).status).toBe(403)
    expect((await call(app, 'events/42?ical=1&password=hunter2')).status).toBe(403)
    expect((await call(app, 'events/999.ics')).status).toBe(404)
    expect((await call(app, 'venues/11/events.ics')).status).toBe(403)
    expect((await call(app, 'categories/999/events.ics')).status).toBe(400)
  })

  it('reaches 30 days into the past unless the query names a start', async () => {
    const app = await fixtureApp('feeds')
    expect((await call(app, 'events.ics')).text).not.toContain('Long Ago')
    expect((await call(app, 'events.ics?start_date=2026-01-01')).text).toContain('Long Ago')
  })
})

describe('one event and one series', () => {
  it('an occurrence id, the series id and ?ical=1 give the series with its changed occurrences', async () => {
    const app = await fixtureApp('feeds')
    const occurrence = 30 * 1e9 + Date.UTC(2026, 10, 3, 9) / 60_000
    const bySeries = await call(app, 'events/30.ics')
    const byOccurrence = await call(app, `events/${occurrence}.ics`)
    const byQuery = await call(app, 'events/30?ical=1')
    const uids = (text: string) =>
      parseFeed(text)
        .getAllSubcomponents('vevent')
        .map((v) => v.getFirstPropertyValue('uid'))
    expect(uids(bySeries.text)).toEqual(['30@127.0.0.1', '30@127.0.0.1', '30@127.0.0.1'])
    expect(bySeries.text).toContain('RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20270330T225959Z\r\n')
    expect(bySeries.text).toContain('EXDATE;TZID=Europe/London:20261229T090000\r\n')
    expect(byOccurrence.headers.get('etag')).toBe(bySeries.headers.get('etag'))
    expect(byQuery.headers.get('etag')).toBe(bySeries.headers.get('etag'))
  })
})

describe('caching and change', () => {
  it('answers 304 to a client that has the feed, and a new ETag once an event changes', async () => {
    const app = await writableApp('feeds')
    cleanup.push(app.dir)
    const first = await call(app, 'events.ics')
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^"[^"]+"$/)
    const again = await call(app, 'events.ics', { headers: { 'If-None-Match': etag } })
    expect(again.status).toBe(304)
    expect(again.text).toBe('')
    const edit = await call(app, 'events/22', json('POST', { title: 'Renamed Summit' }, as('admin')))
    expect(edit.status).toBe(200)
    const after = await call(app, 'events.ics', { headers: { 'If-None-Match': etag } })
    expect(after.status).toBe(200)
    expect(after.text).toContain('SUMMARY:Renamed Summit')
  })

  it('shows a renamed venue, organizer and category at once, and raises SEQUENCE for the venue', async () => {
    const app = await writableApp('feeds')
    cleanup.push(app.dir)
    const before = (await call(app, 'events/20.ics')).text
    for (const [path, body] of [
      ['venues/10', { venue: 'Town Hall' }],
      ['organizers/12', { organizer: 'Lake Arts' }],
      ['categories/2', { name: 'Concerts' }],
    ] as const)
      expect((await call(app, path, json('POST', body, as('admin')))).status, path).toBe(200)
    const after = (await call(app, 'events/20.ics')).text
    expect(after).toContain('LOCATION:Town Hall\\n1 High Street')
    expect(after).toContain('ORGANIZER;CN="Lake Arts"')
    expect(after).toContain('CATEGORIES:Concerts')
    const sequence = (text: string) => Number(/^SEQUENCE:(\d+)/m.exec(text)![1])
    expect(sequence(after)).toBeGreaterThan(sequence(before))
  })

  it('moving an event keeps its UID and raises its SEQUENCE, at every write, even two in one second', async () => {
    const app = await writableApp('feeds')
    cleanup.push(app.dir)
    const read = async () => instancesOf(parseFeed((await call(app, 'events/20.ics')).text))[0]!
    const before = await read()
    const moves = ['2026-12-13 19:00:00', '2026-12-14 19:00:00']
    const seen = [before]
    for (const start_date of moves) {
      const end_date = start_date.replace('19:00', '21:00')
      const res = await call(app, 'events/20', json('POST', { start_date, end_date }, as('admin')))
      expect(res.status).toBe(200)
      seen.push(await read())
    }
    expect(seen.map((instance) => instance.uid)).toEqual(['20@127.0.0.1', '20@127.0.0.1', '20@127.0.0.1'])
    expect(seen[1]!.sequence).toBeGreaterThan(seen[0]!.sequence)
    // The tests' clock stands still: the second write is in the same second as the first.
    expect(seen[2]!.sequence).toBeGreaterThan(seen[1]!.sequence)
    expect(seen[2]!.start).toBe(Date.parse('2026-12-14T19:00:00Z'))
  })
})
