import { describe, expect, it } from 'vitest'
import { call, fixtureApp } from '../helpers.ts'
import { type Instance, instancesOf, parseFeed } from './parse.ts'

// For a calendar with DST zones, a half-hour zone, all-day and multi-day events, series with exclusions,
// extra dates and moved occurrences, and translations, every event instance a client reads from the feed
// (ical.js expanding each series) is an event of the JSON list for the same query, and the reverse.

type Json = Record<string, any>

const WINDOW = 'ends_after=2026-10-23'
const STATUS: Record<string, string> = { cancelled: 'CANCELLED', postponed: 'TENTATIVE' }

async function jsonEvents(app: Awaited<ReturnType<typeof fixtureApp>>, query: string): Promise<Json[]> {
  const out: Json[] = []
  for (let page = 1; ; page++) {
    const res = await call(app, `events?${WINDOW}&per_page=50&page=${page}&${query}`)
    if (res.status !== 200) break
    out.push(...res.body.events)
    if (page >= res.body.total_pages) break
  }
  return out
}

function nextDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
}

/** Occurrences of the fixture's series that have overrides. */
const overridden = new Set([
  30 * 1e9 + Date.UTC(2026, 10, 3, 9) / 60_000,
  30 * 1e9 + Date.UTC(2026, 11, 22, 9) / 60_000,
  31 * 1e9 + Date.UTC(2027, 2, 6) / 60_000,
])
/** Password-protected events are left out of feeds; JSON lists show them blanked. */
const PROTECTED = 42

/** What a client should read for a JSON event. */
function expected(event: Json): Instance {
  const allDay = event.all_day === true
  const utc = (wall: string) => Date.parse(`${wall.replace(' ', 'T')}Z`)
  return {
    uid: `${event.series?.id ?? event.id}@127.0.0.1`,
    recurrence: event.series ? (allDay ? event.series.start_date.slice(0, 10) : event.series.start_date) : '',
    summary: event.title,
    start: allDay ? event.start_date.slice(0, 10) : utc(event.utc_start_date),
    end: allDay ? nextDay(event.end_date.slice(0, 10)) : utc(event.utc_end_date),
    tzid: allDay ? null : event.timezone,
    // An online event's place is its address; the venue otherwise.
    location:
      event.attendance_mode === 'online' ? event.online_url : Array.isArray(event.venue) ? null : event.venue.venue,
    status: STATUS[event.event_status] ?? 'CONFIRMED',
    // A client expands a series from its one VEVENT: an occurrence's URL is the series' page, unless it was
    // changed (and has a VEVENT of its own).
    url: event.series && !overridden.has(event.id) ? event.url.replace(/\d{4}-\d{2}-\d{2}(-\d{4})?\/$/, '') : event.url,
  } as Instance
}

function seen(instance: Instance) {
  const { sequence, description, ...rest } = instance
  return { ...rest, location: rest.location?.split('\n')[0] ?? null }
}

const windowStart = Date.parse('2026-10-23T23:59:59Z')
const ends = (instance: Instance) =>
  typeof instance.end === 'number' ? instance.end : Date.parse(`${instance.end}T00:00:00Z`)

async function compare(path: string, query: string) {
  const app = await fixtureApp('feeds')
  const feed = await call(app, `${path}?${query}`)
  expect(feed.status).toBe(200)
  expect(feed.headers.get('content-type')).toBe('text/calendar; charset=utf-8')
  const parsed = instancesOf(parseFeed(feed.text)).filter((instance) => ends(instance) > windowStart)
  const json = (await jsonEvents(app, query)).filter((event) => event.id !== PROTECTED)
  const key = (i: { uid: string; recurrence: string }) => `${i.uid} ${i.recurrence}`
  const fromFeed = new Map(parsed.map((instance) => [key(instance), seen(instance)]))
  const fromJson = new Map(json.map((event) => [key(expected(event)), expected(event)]))
  expect([...fromFeed.keys()].sort()).toEqual([...fromJson.keys()].sort())
  for (const [k, instance] of fromJson) expect(fromFeed.get(k), k).toEqual(instance)
  return { parsed, json }
}

describe('a feed read by ical.js equals the JSON list of the same query', () => {
  for (const lang of ['en', 'ms']) {
    it(`the whole calendar in ${lang}`, async () => {
      const { json } = await compare('events.ics', `ml_language=${lang}`)
      expect(json.length).toBeGreaterThan(20)
    })
  }

  it('the list with ?ical=1 is the same feed as events.ics', async () => {
    const app = await fixtureApp('feeds')
    const a = await call(app, 'events.ics?categories=2')
    const b = await call(app, 'events?ical=1&categories=2')
    expect(b.headers.get('content-type')).toBe('text/calendar; charset=utf-8')
    expect(b.text.replace(/SOURCE.*\r\n( .*\r\n)*/, '')).toBe(a.text.replace(/SOURCE.*\r\n( .*\r\n)*/, ''))
  })

  it('a category, a tag, a venue and an organizer feed', async () => {
    await compare('categories/2/events.ics', 'categories=2')
    await compare('tags/4/events.ics', 'tags=4')
    await compare('venues/10/events.ics', 'venue=10')
    await compare('organizers/12/events.ics', 'organizer=12')
  })
})
