import { afterAll, describe, expect, it } from 'vitest'
import { call } from '../helpers.ts'
import { instancesOf, parseFeed } from './parse.ts'
import { treeApp } from './review-tree.ts'

// Review of issue 15: every zone name Almanac accepts for an event (an IANA name, or `UTC+5`, `UTC+05:30`)
// gives a feed that a strict parser reads, at the instants the JSON shows (RFC 5545 section 3.2: a parameter value
// with a colon, semicolon or comma must be a quoted-string).

const apps: { remove(): Promise<unknown> }[] = []
afterAll(async () => {
  for (const app of apps) await app.remove()
})

const event = (id: number, zone: string, extra = '') =>
  `---\nid: ${id}\ntitle: In ${zone}\nslug: in-${id}\ndate: 2026-10-01 09:00:00\nstart_date: 2026-12-01 10:00:00\nend_date: 2026-12-01 11:00:00\ntimezone: ${zone}\n${extra}---\nBody\n`

describe('a zone written as a UTC offset with minutes', () => {
  it('gives a single event a feed ical.js reads, at the JSON instant', async () => {
    const app = await treeApp({ 'events/offset.en.md': event(70, 'UTC+05:30') }, { base: false })
    apps.push(app)
    expect(app.problems).toEqual([])
    const json = await call(app, 'events/70')
    expect(json.body.timezone).toBe('UTC+05:30')
    const feed = await call(app, 'events/70.ics')
    expect(feed.status).toBe(200)
    const [instance] = instancesOf(parseFeed(feed.text))
    expect(instance!.start).toBe(Date.parse(`${json.body.utc_start_date.replace(' ', 'T')}Z`))
  })

  it("gives a series a feed ical.js reads, its EXDATE in the series' zone", async () => {
    const rule = 'recurrence:\n  rrule: FREQ=DAILY;COUNT=3\n  exdate: [2026-12-02]\n'
    const app = await treeApp({ 'events/offset.en.md': event(71, 'UTC-03:30', rule) }, { base: false })
    apps.push(app)
    const feed = await call(app, 'events/71.ics')
    expect(feed.status).toBe(200)
    const starts = instancesOf(parseFeed(feed.text)).map((one) => new Date(one.start).toISOString())
    expect(starts).toEqual(['2026-12-01T13:30:00.000Z', '2026-12-03T13:30:00.000Z'])
  })
})

describe('an open-ended series when the month turns', () => {
  it('excludes no start of its rule before the store has moved its horizon', async () => {
    const rule = 'recurrence:\n  rrule: FREQ=WEEKLY;BYDAY=TU\n'
    const app = await treeApp({ 'events/weekly.en.md': event(72, 'Europe/London', rule) }, { base: false })
    apps.push(app)
    expect((await call(app, 'events/72.ics')).text).not.toContain('EXDATE')
    // The clock passes the first of the month; a server moves the store's horizon within the hour.
    app.clock.now = Date.parse('2026-12-01T00:10:00Z')
    const feed = (await call(app, 'events/72.ics')).text
    expect(feed).not.toContain('EXDATE')
    await app.store.moveHorizon()
    expect((await call(app, 'events/72.ics')).text).not.toContain('EXDATE')
  })
})

describe('a kept feed answer as the months pass', () => {
  it('is the feed computed afresh once the horizon has moved, for a query that names both its dates', async () => {
    const rule = 'recurrence:\n  rrule: FREQ=WEEKLY;COUNT=4\n'
    const files = { 'events/weekly.en.md': event(73, 'Europe/London', rule) }
    const path = 'events.ics?start_date=2026-01-01&end_date=2030-01-01'
    const app = await treeApp(files, { base: false })
    apps.push(app)
    await call(app, path)
    // Three months on: the horizon (and the VTIMEZONE span it sets) has moved past the March 2029 change.
    app.clock.now = Date.parse('2027-02-15T12:00:00Z')
    await app.store.moveHorizon()
    const kept = await call(app, path)
    const fresh = await treeApp(files, { base: false })
    apps.push(fresh)
    fresh.clock.now = app.clock.now
    await fresh.store.moveHorizon()
    const again = (await call(fresh, path)).text
    expect(kept.text).toBe(again)
  })
})

describe('an open-ended series read through its VTIMEZONE', () => {
  it('keeps its wall clock past the horizon: a summer occurrence after it is at summer time', async () => {
    const rule = 'recurrence:\n  rrule: FREQ=WEEKLY\n'
    const app = await treeApp({ 'events/open.en.md': event(74, 'Europe/London', rule) }, { base: false })
    apps.push(app)
    const feed = await call(app, 'events/74.ics')
    // The horizon is 2029-01-01; a client expanding the rule goes on (docs/feeds.md §4).
    const july = instancesOf(parseFeed(feed.text), '2029-08-01T00:00:00').filter((one) =>
      new Date(one.start).toISOString().startsWith('2029-07'),
    )
    expect(july.length).toBeGreaterThan(0)
    // 10:00 in London in July is 09:00 UTC (BST).
    for (const one of july) expect(new Date(one.start).toISOString().slice(11, 16)).toBe('09:00')
  })
})
