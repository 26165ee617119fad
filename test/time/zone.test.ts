import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  abbreviation,
  instantToIso,
  instantToWall,
  isTimeZone,
  WALL_CLOCK,
  wallToInstant,
} from '../../src/time/zone.ts'
import { parseTime } from '../../src/time/parse.ts'

describe('wall clock and instants', () => {
  it.each([
    ['2026-11-25 19:00:00', 'America/Chicago', '2026-11-26 01:00:00', '2026-11-25T19:00:00-06:00'],
    ['2027-07-01 19:00:00', 'America/Chicago', '2027-07-02 00:00:00', '2027-07-01T19:00:00-05:00'],
    ['2026-12-01 19:00:00', 'Asia/Singapore', '2026-12-01 11:00:00', '2026-12-01T19:00:00+08:00'],
    ['2027-03-27 12:00:00', 'Europe/London', '2027-03-27 12:00:00', '2027-03-27T12:00:00+00:00'],
    ['2027-03-29 12:00:00', 'Europe/London', '2027-03-29 11:00:00', '2027-03-29T12:00:00+01:00'],
    ['2026-12-01 19:00:00', 'UTC+8', '2026-12-01 11:00:00', '2026-12-01T19:00:00+08:00'],
  ])('reads %s in %s as %s UTC', (wall, zone, utc, iso) => {
    const instant = wallToInstant(wall, zone)
    expect(instantToWall(instant, 'UTC')).toBe(utc)
    expect(instantToIso(instant, zone)).toBe(iso)
  })

  // The digits are read at their places, not from the pattern's groups: any text the pattern takes is read as its
  // groups say (in UTC, where no offset moves it; months and days past their ends roll over, as Date.UTC rolls them),
  // and any other is no instant.
  it('reads the digits of any text written as a wall clock, and no instant from any other text', () => {
    const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)
    const char = fc.constantFrom(...'0123456789', '-', ' ', 'T', 't', ':', '\n', '٣', 'x')
    const walls = fc.oneof(
      fc
        .tuple(
          fc.integer({ min: 100, max: 9999 }),
          fc.array(fc.integer({ min: 0, max: 99 }), { minLength: 4, maxLength: 4 }),
          fc.option(fc.integer({ min: 0, max: 99 })),
          fc.constantFrom(' ', 'T'),
        )
        .map(([y, [mo = 0, d = 0, h = 0, mi = 0], s, sep]) => {
          const two = (n: number) => String(n).padStart(2, '0')
          return `${String(y).padStart(4, '0')}-${two(mo)}-${two(d)}${sep}${two(h)}:${two(mi)}${s === null ? '' : `:${two(s)}`}`
        }),
      fc.string({ unit: char, maxLength: 21, size: 'max' }),
    )
    // A wall clock with one character changed, taken out or put in: nearly one, which must be no instant.
    const edited = fc
      .tuple(walls, fc.nat(), fc.option(char, { nil: undefined }), fc.constantFrom('change', 'drop', 'add'))
      .map(([wall, at, c = '', how]) => {
        const i = at % (wall.length + 1)
        return wall.slice(0, i) + (how === 'drop' ? '' : c) + wall.slice(how === 'add' ? i : i + 1)
      })
    fc.assert(
      fc.property(fc.oneof(walls, edited), (wall) => {
        const m = WALL_CLOCK.exec(wall)
        const instant = wallToInstant(wall, 'UTC')
        // Years below 100 are read past Date.UTC's 1900s (utcMillis), which this reference does not follow.
        fc.pre(!m || +m[1]! >= 100)
        if (m) expect(instant).toBe(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0)))
        else expect(instant).toBeNaN()
      }),
      { numRuns: 3000, seed },
    )
  })

  it('moves a time inside a spring-forward gap forward, as clocks do', () => {
    expect(instantToWall(wallToInstant('2027-03-28 01:30:00', 'Europe/London'), 'Europe/London')).toBe(
      '2027-03-28 02:30:00',
    )
  })

  it.each([
    ['Asia/Hong_Kong', '2026-12-01 19:00:00', 'HKT'],
    ['Asia/Hong_Kong', '2027-07-01 19:00:00', 'HKT'],
    // The tz database itself has no letters for these: a number, as it says.
    ['Asia/Singapore', '2026-12-01 19:00:00', '+08'],
    ['Asia/Kuala_Lumpur', '2026-12-01 19:00:00', '+08'],
    ['America/Sao_Paulo', '2027-01-15 19:00:00', '-03'],
    ['Asia/Kathmandu', '2027-01-15 19:00:00', '+0545'],
    ['Europe/London', '2026-12-01 19:00:00', 'GMT'],
    ['Europe/London', '2027-07-01 19:00:00', 'BST'],
    ['America/New_York', '2027-01-15 19:00:00', 'EST'],
    ['America/New_York', '2027-07-01 19:00:00', 'EDT'],
    ['America/Chicago', '2026-11-25 19:00:00', 'CST'],
    ['Asia/Kolkata', '2026-12-01 19:00:00', 'IST'],
    ['Asia/Shanghai', '2026-12-01 19:00:00', 'CST'],
    ['Asia/Tokyo', '2026-12-01 19:00:00', 'JST'],
    ['Australia/Sydney', '2027-01-15 19:00:00', 'AEDT'],
    ['Australia/Sydney', '2027-07-01 19:00:00', 'AEST'],
    ['Europe/Berlin', '2027-07-01 19:00:00', 'CEST'],
    ['UTC', '2026-12-01 19:00:00', 'UTC'],
    ['UTC+8', '2026-12-01 19:00:00', 'UTC+8'],
  ])('abbreviates %s on %s as the tz database does: %s (docs/compatibility.md §16)', (zone, wall, abbr) => {
    expect(abbreviation(zone, wallToInstant(wall, zone))).toBe(abbr)
  })

  it('switches abbreviation at the very instant the clocks change', () => {
    const change = Date.parse('2027-03-28T01:00:00Z') // BST begins in London
    expect(abbreviation('Europe/London', change - 1000)).toBe('GMT')
    expect(abbreviation('Europe/London', change)).toBe('BST')
  })

  it.each(['Asia/Singapore', 'UTC', 'UTC+8', 'UTC-05:30'])('accepts %s as a time zone', (zone) =>
    expect(isTimeZone(zone)).toBe(true),
  )
  it.each(['Mars/Base', 'SGT', '', 'UTC+99x'])('rejects %s as a time zone', (zone) =>
    expect(isTimeZone(zone)).toBe(false),
  )
})

describe('date parameters', () => {
  const now = Date.parse('2026-11-22T02:08:30Z') // a Sunday; 10:08:30 in Singapore
  const read = (text: string | number) => {
    const parsed = parseTime(text, 'Asia/Singapore', now)
    return parsed ? instantToWall(parsed.instant, 'Asia/Singapore') : null
  }

  it.each([
    ['2026-12-05', '2026-12-05 00:00:00'],
    ['2026-12-05 14:00:00', '2026-12-05 14:00:00'],
    ['2026-12-05 14:00', '2026-12-05 14:00:00'],
    ['2026-12-05T14:00:00+00:00', '2026-12-05 22:00:00'],
    ['2026-12-05T14:00:00Z', '2026-12-05 22:00:00'],
    ['1795000000', '2026-11-18 19:06:40'],
    [1795000000, '2026-11-18 19:06:40'],
    ['now', '2026-11-22 10:08:30'],
    ['today', '2026-11-22 00:00:00'],
    ['tomorrow', '2026-11-23 00:00:00'],
    ['yesterday', '2026-11-21 00:00:00'],
    ['+3 days', '2026-11-25 10:08:30'],
    ['-1 week', '2026-11-15 10:08:30'],
    ['+2 months', '2027-01-22 10:08:30'],
    ['3 days ago', '2026-11-19 10:08:30'],
    ['next monday', '2026-11-23 00:00:00'],
    ['next monday 9am', '2026-11-23 09:00:00'],
    ['next sunday', '2026-11-29 00:00:00'],
    ['last friday', '2026-11-20 00:00:00'],
    ['tomorrow 18:30', '2026-11-23 18:30:00'],
    ['  Tomorrow  ', '2026-11-23 00:00:00'],
  ])('reads %s as %s (site time zone)', (text, wall) => expect(read(text)).toBe(wall))

  it.each(['not-a-date', '2026-13-45', '2026-02-30', '', 'next blursday', '+3 bananas', 'tomorrow 25:00', 'yes'])(
    'rejects %s',
    (text) => expect(read(text)).toBeNull(),
  )
})
