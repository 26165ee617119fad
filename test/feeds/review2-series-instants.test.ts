import { afterAll, describe, expect, it } from 'vitest'
import { call } from '../helpers.ts'
import { instancesOf, parseFeed } from './parse.ts'
import { treeApp } from './review-tree.ts'

// Second review of issue 15 (docs/feeds.md §4): what a client expands from a series' VEVENT is what the JSON
// list of the same query holds — the same instants, and no more.

const apps: { remove(): Promise<unknown> }[] = []
afterAll(async () => {
  for (const app of apps) await app.remove()
})

const event = (id: number, start: string, end: string, more: string[] = []) =>
  [
    '---',
    `id: ${id}`,
    `title: Event ${id}`,
    `slug: event-${id}`,
    'date: 2020-01-01 09:00:00',
    `start_date: ${start}`,
    `end_date: ${end}`,
    'timezone: Europe/London',
    ...more,
    '---',
    'Body',
    '',
  ].join('\n')

async function jsonStarts(app: Awaited<ReturnType<typeof treeApp>>, query: string): Promise<number[]> {
  const out: number[] = []
  for (let page = 1; ; page++) {
    const res = await call(app, `events?${query}&per_page=50&page=${page}`)
    for (const one of res.body.events) out.push(Date.parse(`${one.utc_start_date.replace(' ', 'T')}Z`))
    if (page >= res.body.total_pages) break
  }
  return out.sort()
}

describe('a wall clock in the spring-forward gap', () => {
  // RFC 5545 reads a wall clock in the gap with the offset before it, as Almanac does; ical.js reads it an hour
  // earlier: a series with such an occurrence goes by its dates, each written as the wall clock of its instant.
  it('gives an ical.js client the instant the JSON serves, for a series and for a single event', async () => {
    // 2027-03-28 01:30 does not exist in Europe/London; Almanac reads it as 01:30 GMT (RFC 5545 section 3.3.5). The
    // single event's DTSTART is written as 02:30 (its real wall clock); an RRULE would give 01:30 with the TZID, which
    // ical.js reads an hour earlier (00:30Z), so the series goes by its dates, that one written as 02:30.
    const app = await treeApp(
      {
        'events/nightly.en.md': event(700, '2027-03-26 01:30:00', '2027-03-26 02:00:00', [
          'recurrence:',
          '  rrule: FREQ=DAILY;COUNT=4',
        ]),
        'events/single.en.md': event(701, '2027-03-28 01:30:00', '2027-03-28 02:30:00'),
      },
      { base: false },
    )
    apps.push(app)
    expect(app.problems).toEqual([])
    const query = 'start_date=2027-03-01&end_date=2027-04-30'
    const json = await jsonStarts(app, query)
    expect(json).toHaveLength(5)
    const feed = await call(app, `events.ics?${query}`)
    const client = instancesOf(parseFeed(feed.text)).map((one) => one.start as number)
    expect(client.sort()).toEqual(json)
  })
})

describe('an open-ended series in a feed whose query ends', () => {
  it('gives a client no occurrence after the end the query names', async () => {
    const app = await treeApp(
      {
        'events/weekly.en.md': event(702, '2026-12-01 09:00:00', '2026-12-01 10:00:00', [
          'recurrence:',
          '  rrule: FREQ=WEEKLY',
        ]),
      },
      { base: false },
    )
    apps.push(app)
    const query = 'start_date=2026-12-01&end_date=2027-01-31'
    const json = await jsonStarts(app, query)
    expect(json).toHaveLength(9)
    const feed = await call(app, `events.ics?${query}`)
    // Read up to 2031: the rule's occurrences past the store's horizon (2029-01-01) are not taken out by EXDATE.
    const client = instancesOf(parseFeed(feed.text), '2031-01-01T00:00:00').map((one) => one.start as number)
    expect(client.sort()).toEqual(json)
  })
})
