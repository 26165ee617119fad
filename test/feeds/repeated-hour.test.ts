import { describe, expect, it } from 'vitest'
import { call } from '../helpers.ts'
import { file, seriesApp } from '../series/tree.ts'
import { instancesOf, parseFeed } from './parse.ts'

// A wall clock that happens twice, in the hour clocks go back, is its first occurrence in the JSON (RFC 5545 3.3.5),
// and ical.js (Thunderbird's reader, and these tests') reads the second once the feed's VTIMEZONE holds the change.
// Such an event is written in UTC, and such an occurrence of a series gets its own VEVENT, so that every client
// finds the instants the JSON serves (found by a review: a weekly New York series at 01:30 was an hour off).
const NOW = Date.parse('2026-10-01T00:00:00Z')
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ')

async function bothWays(files: Record<string, string>, feed: string, list: string) {
  const app = await seriesApp(files, { now: NOW })
  const json = (await call(app, list)).body.events.map((e: any) => `${e.utc_start_date} ${e.utc_end_date}`)
  const text = (await call(app, feed)).text
  const read = instancesOf(parseFeed(text)).map((i) => `${iso(i.start as number)} ${iso(i.end as number)}`)
  return { json, read: read.sort(), text }
}

const event = (id: number, start: string, end: string, timezone: string, more: Record<string, unknown> = {}) =>
  file({
    id,
    title: `E${id}`,
    slug: `e${id}`,
    date: '2026-01-01 00:00:00',
    start_date: start,
    end_date: end,
    timezone,
    ...more,
  })

describe('wall clocks of the hour clocks go back, in feeds', () => {
  // A weekly New York series at 01:30: the rule stays in the zone, and the occurrence on the night of the change is its
  // own VEVENT in UTC, named as the rule names it; an UNTIL at that wall clock is its second instant (06:30Z), where
  // RFC 5545's reading (05:30Z) and ical.js's (06:30Z) both end.
  it.each([
    [
      'COUNT=4',
      [
        'RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=SU',
        'RECURRENCE-ID;TZID=America/New_York:20261101T013000',
        'DTSTART:20261101T053000Z',
      ],
    ],
    ['UNTIL=20261101T013000', ['UNTIL=20261101T063000Z']],
  ])(
    'a weekly series at 01:30 (%s): every occurrence the JSON serves, the night of the change too',
    async (end, lines) => {
      const files = {
        'events/s.en.md': event(6, '2026-10-18 01:30:00', '2026-10-18 02:00:00', 'America/New_York', {
          recurrence: { rrule: `FREQ=WEEKLY;BYDAY=SU;${end}` },
        }),
      }
      const { json, read, text } = await bothWays(files, 'events/6.ics', 'events?post_parent=6&per_page=50')
      expect(json).toContain('2026-11-01 05:30:00 2026-11-01 07:00:00')
      expect(read).toEqual(json)
      for (const line of lines) expect(text).toContain(line)
    },
  )

  it.each([
    ['Europe/London', '2026-10-25 01:15:00', '2026-10-25 03:00:00', '2026-10-25 00:15:00'],
    ['America/New_York', '2026-11-01 00:30:00', '2026-11-01 01:30:00', '2026-11-01 04:30:00'],
    ['Australia/Lord_Howe', '2027-04-04 01:40:00', '2027-04-04 02:30:00', '2027-04-03 14:40:00'],
  ])("an event in %s from %s to %s: the JSON's instants", async (zone, start, end, utcStart) => {
    const { json, read, text } = await bothWays(
      { 'events/a.en.md': event(1, start, end, zone) },
      'events/1.ics',
      'events?start_date=2026-01-01&end_date=2027-12-31',
    )
    expect(json[0]?.startsWith(utcStart)).toBe(true)
    expect(read).toEqual(json)
    expect(text).toMatch(/^DTSTART:\d{8}T\d{6}Z$/m)
  })

  it('an event that neither starts nor ends in that hour keeps its zone', async () => {
    const { read, json, text } = await bothWays(
      { 'events/a.en.md': event(1, '2026-10-24 22:00:00', '2026-10-25 03:00:00', 'Europe/London') },
      'events/1.ics',
      'events?start_date=2026-01-01',
    )
    expect(read).toEqual(json)
    expect(text).toContain('DTSTART;TZID=Europe/London:20261024T220000')
  })
})

// RFC 5545 gives every instance of a rule the exact length of the first; the JSON (as TEC) keeps each occurrence's
// wall-clock end, so one a DST change crosses is an hour longer or shorter. Such an occurrence gets its own VEVENT,
// whose DTEND every client reads as written.
describe('an occurrence a DST change makes longer or shorter, in feeds', () => {
  it.each([
    ['clocks go back', '2026-10-24', '2026-10-31', '20261101T030000'],
    ['clocks go forward', '2027-03-06', '2027-03-13', '20270314T030000'],
  ])('a weekly New York series from 23:00 to 03:00 the night %s: its own DTEND', async (_, first, night, end) => {
    const next = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
    const files = {
      'events/s.en.md': event(6, `${first} 23:00:00`, `${next(first)} 03:00:00`, 'America/New_York', {
        recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=SA;COUNT=3' },
      }),
    }
    const { json, read, text } = await bothWays(
      files,
      'events/6.ics',
      'events?post_parent=6&per_page=50&start_date=2026-01-01',
    )
    expect(read).toEqual(json)
    const own = text
      .split('BEGIN:VEVENT')
      .find((part) => part.includes(`RECURRENCE-ID;TZID=America/New_York:${night.replaceAll('-', '')}T230000`))
    expect(own).toContain(`DTEND;TZID=America/New_York:${end}`)
    // The other occurrences are the rule's alone.
    expect(text.match(/RECURRENCE-ID/g)).toHaveLength(1)
  })
})
