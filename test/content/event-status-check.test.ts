import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { attendanceOf, eventStatusOf, statusDetailsOf } from '../../src/content/model/event-status.ts'
import { checkSource, checkTranslation } from '../../src/content/schema/records.ts'
import { call, testApp } from '../helpers.ts'
import { almanac, loadStore, tempTree } from './trees.ts'

// An event's status and attendance in its front matter (docs/compatibility.md §32): five optional fields, exact
// values, a bad one an error on its line while the rest of the tree is served.

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

const BASE = { id: 1, title: 'Gig', start_date: '2027-01-01 19:00:00', end_date: '2027-01-01 21:00:00' }

const BROKEN = [
  '---',
  'id: 70',
  'title: Broken Status',
  'slug: broken-status',
  'start_date: 2026-12-20 18:00:00',
  'end_date: 2026-12-20 20:00:00',
  'event_status: Cancelled',
  'event_status_reason: [not, text]',
  'previous_start_date: 2026-02-30 18:00',
  'attendance_mode: hybrid',
  'online_url: "javascript:alert(1)"',
  '---',
  '',
].join('\n')

describe('the status fields of an event file', () => {
  it('take the exact values, a reason, a wall clock and an http(s) address', () => {
    const good = {
      ...BASE,
      event_status: 'rescheduled',
      event_status_reason: 'The band is stuck at the airport.',
      previous_start_date: '2026-12-20 19:00',
      attendance_mode: 'mixed',
      online_url: 'https://stream.example.org/gig',
    }
    expect(checkSource('events', good)).toEqual([])
    for (const status of ['scheduled', 'cancelled', 'postponed', 'rescheduled', 'moved_online'])
      expect(checkSource('events', { ...BASE, event_status: status })).toEqual([])
    for (const mode of ['offline', 'online', 'mixed'])
      expect(checkSource('events', { ...BASE, attendance_mode: mode })).toEqual([])
  })

  it('refuse other spellings, other schemes and dates that are not wall clocks, in plain words', () => {
    expect(checkSource('events', { ...BASE, event_status: 'canceled' })).toEqual([
      'event_status: "canceled" is not an event_status; use scheduled, cancelled, postponed, rescheduled or moved_online',
    ])
    expect(checkSource('events', { ...BASE, attendance_mode: 'Online' })).toEqual([
      'attendance_mode: "Online" is not an attendance_mode; use offline, online or mixed',
    ])
    expect(checkSource('events', { ...BASE, online_url: 'javascript:alert(1)' })).toEqual([
      'online_url: "javascript:alert(1)" is not a web address; use one that starts with http:// or https://',
    ])
    expect(checkSource('events', { ...BASE, previous_start_date: 'last week' })).toEqual([
      'previous_start_date: "last week" is not a date and time written YYYY-MM-DD HH:MM:SS (such as 2026-06-01 19:00:00)',
    ])
  })

  it('may change one occurrence of a series, and a translation may carry its own reason', () => {
    const series = {
      ...BASE,
      recurrence: { rrule: 'FREQ=WEEKLY;COUNT=3' },
      overrides: {
        '2027-01-08': {
          event_status: 'cancelled',
          event_status_reason: 'Hall closed',
          online_url: '',
          previous_start_date: '',
        },
      },
    }
    expect(checkSource('events', series)).toEqual([])
    expect(checkTranslation('events', { event_status_reason: 'Dewan ditutup' })).toEqual([])
    expect(
      checkTranslation('events', { overrides: { '2027-01-08': { event_status_reason: 'Dewan ditutup' } } }),
    ).toEqual([])
    expect(
      checkSource('events', { ...series, overrides: { '2027-01-08': { event_status: 'gone' } } }).join('\n'),
    ).toContain('"gone" is not an event_status')
  })

  it('are errors on their lines in almanac check, and the rest of the tree is still served', async () => {
    const tree = await tempTree('status')
    cleanups.push(tree.cleanup)
    await writeFile(join(tree.content, 'events/broken-status.en.md'), BROKEN)
    const result = await almanac(['check'], tree.dir)
    expect(result.code).toBe(1)
    const lines = result.stdout.split('\n').filter((line) => line.startsWith('content/events/broken-status.en.md:'))
    expect(lines).toEqual([
      'content/events/broken-status.en.md:7: event_status: "Cancelled" is not an event_status; use scheduled, cancelled, postponed, rescheduled or moved_online',
      'content/events/broken-status.en.md:8: event_status_reason: ["not","text"] is not text',
      'content/events/broken-status.en.md:9: previous_start_date: "2026-02-30 18:00" is not a real date and time (no such day, hour or minute)',
      'content/events/broken-status.en.md:10: attendance_mode: "hybrid" is not an attendance_mode; use offline, online or mixed',
      'content/events/broken-status.en.md:11: online_url: "javascript:alert(1)" is not a web address; use one that starts with http:// or https://',
    ])
    const { store, problems } = await loadStore(tree.content)
    expect(problems.some((p) => p.severity !== 'warning' && p.path.endsWith('broken-status.en.md'))).toBe(true)
    const app = testApp(store)
    expect((await call(app, 'events/70')).status).toBe(404)
    const list = await call(app, 'events?per_page=50&start_date=2026-01-01')
    expect(list.status).toBe(200)
    expect(list.body.events.map((e: { id: number }) => e.id)).toContain(11)
  })
})

describe('the helpers the answers and the feeds read', () => {
  it('give scheduled and offline when nothing is said, and online for an event moved online', () => {
    expect(eventStatusOf({})).toBe('scheduled')
    expect(attendanceOf({})).toBe('offline')
    expect(attendanceOf({ event_status: 'moved_online' })).toBe('online')
    expect(attendanceOf({ event_status: 'moved_online', attendance_mode: 'mixed' })).toBe('mixed')
    expect(eventStatusOf({ event_status: 'Cancelled' })).toBe('scheduled')
  })

  it('normalize a previous start to seconds and missing text to empty', () => {
    expect(statusDetailsOf({ event_status: 'rescheduled', previous_start_date: '2026-12-08T19:30' })).toEqual({
      status: 'rescheduled',
      reason: '',
      previousStart: '2026-12-08 19:30:00',
      attendance: 'offline',
      onlineUrl: '',
    })
  })
})

describe('the demo calendar', () => {
  it('has a cancelled event with its reason in every language and an event streamed online', async () => {
    const demo = join(import.meta.dirname, '../../content/events')
    for (const lang of ['en', 'ms', 'ta', 'zh-hans'])
      expect(await readFile(join(demo, `kampong-days-film-weekend-2027.${lang}.md`), 'utf8')).toMatch(
        /^event_status_reason: .+$/m,
      )
    expect(await readFile(join(demo, 'midnight-songs-london-singapore-relay-2027.en.md'), 'utf8')).toMatch(
      /^online_url: https:\/\//m,
    )
  })
})
