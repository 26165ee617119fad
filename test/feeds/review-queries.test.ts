import { describe, expect, it } from 'vitest'
import { call, fixtureApp } from '../helpers.ts'
import { instancesOf, parseFeed } from './parse.ts'

// Review of issue 15: `events.ics` takes every argument of `GET /events` and combines them the same way
// (docs/feeds.md §1): a query the list refuses is refused by the feed too, not answered with another set.

describe('a feed query the list refuses', () => {
  it('answers half a geoloc point with 400 naming the missing half, as the list does', async () => {
    const app = await fixtureApp('feeds')
    const list = await call(app, 'events?geoloc_lat=51.5')
    expect(list.status).toBe(400)
    for (const path of ['events.ics?geoloc_lat=51.5', 'venues/10/events.ics?geoloc_lat=51.5']) {
      const feed = await call(app, path)
      expect(feed.status, path).toBe(400)
      expect(feed.body?.code, path).toBe(list.body.code)
    }
  })
})

describe('the SOURCE of a feed of a query', () => {
  it('is an address of the same feed: it keeps the query (RFC 7986 section 5.8: where the calendar is refreshed from)', async () => {
    const app = await fixtureApp('feeds')
    for (const path of [
      'events.ics?categories=3',
      'events?ical=1&categories=3',
      'venues/10/events.ics?event_status=cancelled',
    ]) {
      const feed = await call(app, path)
      const source = /^SOURCE;VALUE=URI:(.*(?:\r\n .*)*)/m.exec(feed.text)![1]!.replace(/\r\n /g, '')
      const refreshed = await call(app, source.replace('http://127.0.0.1:8089', ''))
      const events = (text: string) => text.split('BEGIN:VEVENT').slice(1).join('BEGIN:VEVENT')
      expect(events(refreshed.text), `${path} → ${source}`).toBe(events(feed.text))
    }
  })
})

describe('a feed with no event', () => {
  it('is still an iCalendar object: RFC 5545 section 3.4 asks a VCALENDAR for at least one component', async () => {
    const app = await fixtureApp('feeds')
    // No event starts that late.
    const feed = await call(app, 'events.ics?start_date=2099-01-01')
    expect(feed.status).toBe(200)
    expect(feed.text).toMatch(/^BEGIN:(VEVENT|VTIMEZONE|VTODO|VJOURNAL|VFREEBUSY|X-[A-Z-]+)\r$/m)
  })
})

describe('a feed of a query that a series matches in part', () => {
  // docs/feeds.md §1: "A query that names its dates gets exactly those"; a filter combines as in the list.
  for (const query of ['event_status=cancelled', 'start_date=2027-01-01&end_date=2027-01-31'])
    it(`holds no instance the list of the same query leaves out: ${query}`, async () => {
      const app = await fixtureApp('feeds')
      // A feed without dates reaches 30 days back (docs/feeds.md §1): the list is asked for the same window.
      const window = query.includes('start_date') ? '' : '&ends_after=2026-10-23'
      const list = await call(app, `events?${query}${window}&per_page=50`)
      expect(list.status).toBe(200)
      const listed = new Set(
        list.body.events.map(
          (event: Record<string, any>) => `${event.series?.id ?? event.id} ${event.series?.start_date ?? ''}`,
        ),
      )
      const feed = await call(app, `events.ics?${query}`)
      const read = instancesOf(parseFeed(feed.text)).map((one) => `${one.uid.split('@')[0]} ${one.recurrence}`)
      // An all-day series' instance is read as a date, its JSON start is a date and time.
      const extra = read.filter((key) => ![...listed].some((item) => (item as string).startsWith(key)))
      expect(extra).toEqual([])
    })
})
