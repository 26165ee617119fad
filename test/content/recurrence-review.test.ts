import { describe, expect, it } from 'vitest'
import { readRecurrence } from '../../src/content/model/recurrence.ts'
import { call, json, as, writableApp } from '../helpers.ts'

// Found by an adversarial review after the first version: each failed before its fix.

describe('rules ical.js 2.2 reads wrongly, refused', () => {
  it.each([
    ['FREQ=HOURLY;INTERVAL=7;BYHOUR=23;BYMINUTE=59', 'INTERVAL above 1 takes no BYHOUR'],
    ['FREQ=HOURLY;INTERVAL=5;BYHOUR=10', 'INTERVAL above 1 takes no BYHOUR'],
    ['FREQ=DAILY;UNTIL=20271301', 'UNTIL is not a real date'],
    ['FREQ=DAILY;UNTIL=20270230T000000Z', 'UNTIL is not a real date'],
  ])('%s: %s', (rule, words) => {
    expect(readRecurrence({ rrule: rule }).problems.join(' ')).toContain(words)
  })

  it('still takes an hourly rule with BYHOUR at INTERVAL=1, and a real UNTIL', () => {
    expect(readRecurrence({ rrule: 'FREQ=HOURLY;BYHOUR=9,10' }).problems).toEqual([])
    // RFC 5545's own "every 20 minutes from 9:00 AM to 4:40 PM" is right in ical.js, and taken.
    expect(readRecurrence({ rrule: 'FREQ=MINUTELY;INTERVAL=20;BYHOUR=9,10,11,12,13,14,15,16' }).problems).toEqual([])
    expect(readRecurrence({ rrule: 'FREQ=DAILY;UNTIL=20280229' }).problems).toEqual([])
    expect(readRecurrence({ rrule: 'FREQ=DAILY;UNTIL=20270101T120000Z' }).problems).toEqual([])
  })
})

describe("a series' next occurrences", () => {
  it('come in the order they happen, an occurrence moved far ahead last', async () => {
    const app = await writableApp('series')
    const before = await call(app, 'events/30')
    const second = before.body.recurrence.next[1]
    const moved = await call(
      app,
      `events/${second.id}`,
      json('PATCH', { start_date: '2027-06-01 09:00:00', end_date: '2027-06-01 10:00:00' }, as('admin')),
    )
    expect(moved.status).toBe(200)
    const starts = (await call(app, 'events/30')).body.recurrence.next.map((n: { start_date: string }) => n.start_date)
    expect(starts).toEqual([...starts].sort())
    expect(starts).not.toContain('2027-06-01 09:00:00')
  })
})
