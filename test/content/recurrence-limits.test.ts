import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  expand,
  occurrenceId,
  readRecurrence,
  SERIES_LIMITS,
  splitOccurrenceId,
} from '../../src/content/model/recurrence.ts'
import { instantToWall, wallToInstant } from '../../src/time/zone.ts'

const FIRST = '2026-01-06 09:00:00'
const HORIZON = '2029-01-01 00:00:00'
const problemsOf = (rrule: string) => readRecurrence({ rrule }).problems
const run = (rrule: string, first = FIRST, zone = 'Europe/London', horizon = HORIZON) => {
  const { recurrence, problems } = readRecurrence({ rrule })
  expect(problems).toEqual([])
  return expand(recurrence, first, zone, horizon)
}

describe('rules that cannot be served are refused in plain words', () => {
  it.each([
    ['FREQ=DAILY;INTERVAL=0', /INTERVAL must be 1 to 1000/],
    ['FREQ=DAILY;INTERVAL=-1', /INTERVAL must be 1 to 1000/],
    ['FREQ=DAILY;INTERVAL=1000000000', /INTERVAL must be 1 to 1000/],
    ['garbage', /names no FREQ/],
    [`FREQ=DAILY;${'BYHOUR=1;'.repeat(1200)}`, /longer than 500 characters/],
    ['FREQ=SECONDLY', /at least a minute apart/],
    ['FREQ=DAILY;COUNT=3;UNTIL=20270101T000000Z', /COUNT and UNTIL cannot both be given/],
    ['FREQ=WEEKLY;BYSETPOS=1;BYDAY=MO,TU', /BYSETPOS is taken as FREQ=MONTHLY/],
    ['FREQ=YEARLY;BYSETPOS=-366;BYMONTH=1;BYDAY=MO', /BYSETPOS is taken as FREQ=MONTHLY/],
    ['FREQ=MONTHLY;BYSETPOS=-366;BYDAY=MO', /BYSETPOS must be 1 to 31/],
    ['FREQ=MONTHLY;BYSETPOS=1;BYDAY=1MO', /BYSETPOS is taken as FREQ=MONTHLY/],
    ['FREQ=DAILY;BYDAY=1MO', /BYDAY with a number/],
    ['FREQ=MONTHLY;BYDAY=6MO', /monthly BYDAY number must be 1 to 5/],
    ['FREQ=MONTHLY;BYDAY=-1MO;BYMONTHDAY=1', /not taken with BYMONTHDAY/],
    ['FREQ=MONTHLY;INTERVAL=2;BYDAY=FR,MO;BYMONTHDAY=-1', /BYDAY and BYMONTHDAY is taken with INTERVAL=1 only/],
    ['FREQ=MONTHLY;BYMONTHDAY=0', /BYMONTHDAY must be 1 to 31/],
    ['FREQ=DAILY;BYWEEKNO=1;BYMONTH=6', /BYWEEKNO is taken as FREQ=YEARLY/],
    ['FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO;INTERVAL=2', /INTERVAL=1 only/],
    ['FREQ=YEARLY;BYHOUR=9,17', /BYHOUR and BYMINUTE are not taken with FREQ=YEARLY/],
    ['FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1', /FREQ=MONTHLY;BYMONTHDAY=-1/],
    [
      'FREQ=MONTHLY;BYDAY=SA,MO;BYMONTHDAY=31,1',
      /a monthly rule with BYDAY takes one BYMONTHDAY, or several from 1 to 28/,
    ],
    ['FREQ=YEARLY;BYDAY=FR;BYMONTHDAY=29;BYMONTH=2,4', /for a later day write FREQ=MONTHLY/],
    ['FREQ=YEARLY;BYMONTHDAY=1,15', /names its months in BYMONTH; for every month write FREQ=MONTHLY/],
    [
      'FREQ=YEARLY;BYDAY=SA,MO;BYMONTHDAY=31,1;BYMONTH=1,9',
      /a yearly rule with BYDAY over several months takes BYMONTHDAY 1 to 28/,
    ],
  ])('%s', (rule, message) => {
    const problems = problemsOf(rule)
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatch(/^recurrence\.rrule: /)
    expect(problems[0]).toMatch(message)
    expect(problems[0]!.length).toBeLessThan(300)
  })

  it('a series whose rule is refused still expands without throwing (its first start and dates)', () => {
    const { recurrence } = readRecurrence({ rrule: 'FREQ=DAILY;INTERVAL=0', rdate: ['2026-02-01'] })
    const expansion = expand(recurrence, FIRST, 'UTC', HORIZON)
    expect(expansion.starts).toEqual([FIRST, '2026-02-01 09:00:00'])
    expect(expansion.stopped).toMatch(/INTERVAL/)
  })
})

describe('rules that never or rarely yield end in bounded work', () => {
  // Each of these spun inside one ical.js step (forever for the DAILY/HOURLY/MINUTELY ones), or
  // yielded dates that are not in the rule (30 February rolled over to 2 March).
  it.each([
    ['FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30'],
    ['FREQ=MONTHLY;BYMONTHDAY=31;BYMONTH=4'],
    ['FREQ=DAILY;BYMONTHDAY=31;BYMONTH=4'],
    ['FREQ=HOURLY;BYMONTHDAY=31;BYMONTH=4'],
    ['FREQ=MINUTELY;BYMONTHDAY=30;BYMONTH=2'],
    ['FREQ=YEARLY;BYMONTHDAY=31;BYMONTH=2,4,6,9,11'],
    ['FREQ=MONTHLY;BYDAY=5MO;BYMONTH=2'],
  ])('%s serves its first start only', (rule) => {
    const expansion = run(rule)
    // February has a fifth Monday in some years (2032...), never before this horizon.
    expect(expansion.starts).toEqual([FIRST])
    expect(expansion.stopped).toBeUndefined()
  })

  it.each([
    ['FREQ=MINUTELY;COUNT=1000000000', FIRST, 1],
    ['FREQ=MINUTELY;UNTIL=99991231T000000Z', FIRST, 1],
    ['FREQ=MINUTELY', '1900-01-01 00:00:00', 1],
    ['FREQ=DAILY;BYHOUR=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23;BYMINUTE=0,15,30,45', FIRST, 15],
    ['FREQ=MINUTELY;BYMONTHDAY=29;BYMONTH=2', FIRST, 1],
  ])('%s (from %s) is cut after SERIES_LIMITS.steps candidates, %i minutes apart', (rule, first, minutes) => {
    const expansion = run(rule, first)
    expect(expansion.cut).toBe(true)
    expect(expansion.starts.length).toBeLessThanOrEqual(SERIES_LIMITS.occurrences)
    // The iteration stopped within the step budget: minute rules reach no further than that many minutes.
    const last = expansion.starts.at(-1) ?? first
    expect(Date.parse(`${last.replace(' ', 'T')}Z`) - Date.parse(`${first.replace(' ', 'T')}Z`)).toBeLessThanOrEqual(
      SERIES_LIMITS.steps * minutes * 60_000,
    )
  })

  it('a DAILY rule from 1900 is cut, and serves no occurrence before 1970', () => {
    const expansion = run('FREQ=DAILY', '1900-01-01 09:00:00')
    expect(expansion.cut).toBe(true)
    expect(expansion.starts.every((start) => start >= '1970-01-01')).toBe(true)
  })

  // ical.js writes a year before 1000 unpadded (`50-06-08T10:00:00`): taken as it was, no wall clock matched it and it
  // sorted after 1970, so a series from the years 20–99 or 200–999 threw as the store loaded it.
  it.each(['0001-01-01 00:00:00', '0050-06-01 10:00:00', '0099-12-28 10:00:00', '0500-06-01 10:00:00'])(
    'a rule from %s serves nothing (every start is before 1970) and reads every start it finds as a wall clock',
    (first) => {
      for (const rule of ['FREQ=WEEKLY;COUNT=3', 'FREQ=YEARLY;UNTIL=09991231', 'FREQ=DAILY'])
        expect(run(rule, first).starts).toEqual([])
    },
  )
})

describe('a first start the rule does not produce', () => {
  it('counts as the first of COUNT (RFC 5545: DTSTART always counts): Sunday then one Monday for COUNT=2', () => {
    expect(run('FREQ=WEEKLY;BYDAY=MO;COUNT=2', '2026-05-31 09:00:00').starts).toEqual([
      '2026-05-31 09:00:00',
      '2026-06-01 09:00:00',
    ])
  })

  it("is served once, before the rule's own dates, when the rule is open-ended", () => {
    const { starts } = run('FREQ=MONTHLY;BYDAY=1MO', '2026-05-31 09:00:00', 'UTC', '2026-08-31 23:59:59')
    expect(starts).toEqual(['2026-05-31 09:00:00', '2026-06-01 09:00:00', '2026-07-06 09:00:00', '2026-08-03 09:00:00'])
  })
})

describe('UNTIL forms', () => {
  const weekly = (until: string, zone: string) => run(`FREQ=WEEKLY;UNTIL=${until}`, FIRST, zone).starts.at(-1)

  it('a UTC UNTIL is moved into the zone: 08:59Z is 09:59 in London summer time, so 09:00 that day is in', () => {
    expect(weekly('20260630T085900Z', 'Europe/London')).toBe('2026-06-30 09:00:00')
    expect(weekly('20260630T075900Z', 'Europe/London')).toBe('2026-06-23 09:00:00')
  })

  it('a UTC UNTIL in New York: 13:00Z is 09:00 EDT (in), 13:59Z in winter is 08:59 EST (out)', () => {
    expect(weekly('20260630T130000Z', 'America/New_York')).toBe('2026-06-30 09:00:00')
    expect(weekly('20261208T135900Z', 'America/New_York')).toBe('2026-12-01 09:00:00')
  })

  it('a bare-date UNTIL takes the whole of that day', () => {
    expect(weekly('20260630', 'Asia/Tokyo')).toBe('2026-06-30 09:00:00')
    expect(weekly('20260629', 'Asia/Tokyo')).toBe('2026-06-23 09:00:00')
  })

  it('a floating UNTIL is the wall clock as written', () => {
    expect(weekly('20260630T090000', 'Australia/Sydney')).toBe('2026-06-30 09:00:00')
    expect(weekly('20260630T085959', 'Australia/Sydney')).toBe('2026-06-23 09:00:00')
  })

  it('UNTIL and COUNT end a rule: it is not open-ended; without them it is', () => {
    expect(run('FREQ=WEEKLY;UNTIL=20260630').openEnded).toBe(false)
    expect(run('FREQ=WEEKLY;COUNT=3').openEnded).toBe(false)
    expect(run('FREQ=WEEKLY').openEnded).toBe(true)
  })
})

describe('Europe/London across DST: the wall clock stays', () => {
  it('09:00 every Tuesday stays 09:00 in March and in October/November', () => {
    expect(run('FREQ=WEEKLY;BYDAY=TU', '2026-03-17 09:00:00', 'Europe/London', '2026-04-07 23:59:59').starts).toEqual([
      '2026-03-17 09:00:00',
      '2026-03-24 09:00:00',
      '2026-03-31 09:00:00',
      '2026-04-07 09:00:00',
    ])
    expect(run('FREQ=WEEKLY;BYDAY=TU', '2026-10-20 09:00:00', 'Europe/London', '2026-11-03 23:59:59').starts).toEqual([
      '2026-10-20 09:00:00',
      '2026-10-27 09:00:00',
      '2026-11-03 09:00:00',
    ])
  })
})

describe('occurrence ids', () => {
  const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)
  const wall = fc
    .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('3800-12-31T23:59:00Z'), noInvalidDate: true })
    .map((date) => `${date.toISOString().slice(0, 16).replace('T', ' ')}:00`)

  it('round-trip through splitOccurrenceId, are safe integers at or above SERIES_LIMITS.base', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: SERIES_LIMITS.seriesId }), wall, (series, start) => {
        const id = occurrenceId(series, start)
        expect(Number.isSafeInteger(id)).toBe(true)
        expect(id).toBeGreaterThanOrEqual(SERIES_LIMITS.base)
        expect(splitOccurrenceId(id)).toEqual({ series, start })
      }),
      { numRuns: 500, seed },
    )
  })

  it('record ids (below SERIES_LIMITS.base) are not occurrence ids', () => {
    expect(splitOccurrenceId(SERIES_LIMITS.base - 1)).toBeUndefined()
    expect(splitOccurrenceId(120)).toBeUndefined()
  })
})

describe('a wall clock the zone skips or repeats', () => {
  it('02:30 daily keeps 02:30 as its start; on the spring-forward day it is served at 03:30 local (07:30Z)', () => {
    const { starts } = run('FREQ=DAILY;COUNT=3', '2026-03-07 02:30:00', 'America/New_York')
    expect(starts).toEqual(['2026-03-07 02:30:00', '2026-03-08 02:30:00', '2026-03-09 02:30:00'])
    const instant = wallToInstant('2026-03-08 02:30:00', 'America/New_York')
    expect(new Date(instant).toISOString()).toBe('2026-03-08T07:30:00.000Z')
    expect(instantToWall(instant, 'America/New_York')).toBe('2026-03-08 03:30:00')
  })

  it('01:30 in London on the spring-forward day is served at 02:30 BST (01:30Z)', () => {
    const instant = wallToInstant('2026-03-29 01:30:00', 'Europe/London')
    expect(instantToWall(instant, 'Europe/London')).toBe('2026-03-29 02:30:00')
  })

  it('01:30 on the New York fall-back day is its first (EDT) instant, as RFC 5545 section 3.3.5 says', () => {
    expect(new Date(wallToInstant('2026-11-01 01:30:00', 'America/New_York')).toISOString()).toBe(
      '2026-11-01T05:30:00.000Z',
    )
  })
})
