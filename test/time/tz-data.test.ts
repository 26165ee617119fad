import fc from 'fast-check'
import moment from 'moment-timezone'
import { Settings } from 'luxon'
import { afterEach, describe, expect, it } from 'vitest'
import { parseTime } from '../../src/time/parse.ts'
import { abbreviation, instantToWall, isTimeZone, offsetAt, wallToInstant, zoneFor } from '../../src/time/zone.ts'

const DAY = 86_400_000
// FC_SEED=<n> replays a failure (fast-check prints the seed in its message).
const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)
const seeded = <T>(property: fc.IRawProperty<T>) => fc.assert(property, { seed, numRuns: 300 })
const YEAR_400 = 146_097 * DAY
const ZONES = ['Europe/London', 'America/New_York', 'Australia/Lord_Howe', 'America/Edmonton', 'Asia/Singapore']

describe('one copy of the tz database (src/time/tz-data.ts)', () => {
  it('gives the offset and the abbreviation moment-timezone gives, at any instant its data lists', () =>
    seeded(
      fc.property(
        fc.constantFrom(...ZONES, 'America/Chihuahua', 'Africa/Monrovia', 'Asia/Kathmandu'),
        fc.integer({ min: Date.UTC(1800, 0, 1), max: Date.UTC(2400, 0, 1) }),
        (name, instant) => {
          const data = moment.tz.zone(name)!
          expect(offsetAt(zoneFor(name)!, instant)).toBe(-data.utcOffset(instant))
          expect(abbreviation(name, instant)).toBe(data.abbr(instant))
        },
      ),
    ))

  it('names the offset its abbreviation means, where ICU and moment-timezone disagree (Alberta from November 2026)', () => {
    // moment-timezone 0.6 ships 2026f: Alberta stays on -06:00 ("CST") from 1 November 2026.
    const instant = wallToInstant('2026-12-15 10:00:00', 'America/Edmonton')
    expect(instantToWall(instant, 'UTC')).toBe('2026-12-15 16:00:00')
    expect(abbreviation('America/Edmonton', instant)).toBe('CST')
  })

  it('tells two periods of one offset apart in one year, whichever was asked first (Chihuahua, 2022)', () => {
    const december = wallToInstant('2022-12-01 10:00:00', 'America/Chihuahua')
    const july = wallToInstant('2022-07-01 10:00:00', 'America/Chihuahua')
    expect(abbreviation('America/Chihuahua', december)).toBe('CST')
    expect(abbreviation('America/Chihuahua', july)).toBe('MDT')
    expect(offsetAt(zoneFor('America/Chihuahua')!, july)).toBe(offsetAt(zoneFor('America/Chihuahua')!, december))
  })

  it('keeps a zone that still changes its clocks on its rules past the changes its data lists (2499)', () => {
    const zone = zoneFor('America/New_York')!
    for (const year of [2500, 2600, 3000, 9999]) {
      expect(offsetAt(zone, Date.UTC(year, 6, 1))).toBe(-240)
      expect(offsetAt(zone, Date.UTC(year, 0, 1))).toBe(-300)
      expect(abbreviation('America/New_York', Date.UTC(year, 6, 1))).toBe('EDT')
      // Four hundred years on, the calendar and so the second Sunday of March are the same.
      const change = wallToInstant(`${year}-03-01 00:00:00`, 'UTC')
      for (let t = change; t < change + 30 * DAY; t += 3_600_000)
        expect(offsetAt(zone, t)).toBe(offsetAt(zone, t - YEAR_400))
    }
    // A zone whose last change was long ago stays where it is.
    expect(offsetAt(zoneFor('Asia/Singapore')!, Date.UTC(3000, 6, 1))).toBe(480)
  })

  it('takes the names ICU takes, no others: none that moment-timezone folds into one, old aliases it lacks too', () => {
    for (const name of ['America_New_York', 'europe_london', 'Europe London']) expect(isTimeZone(name)).toBe(false)
    for (const name of ['europe/london', 'US/Pacific-New', 'Canada/East-Saskatchewan', 'SystemV/EST5'])
      expect(isTimeZone(name)).toBe(true)
    expect(offsetAt(zoneFor('US/Pacific-New')!, Date.UTC(2026, 6, 1))).toBe(-420)
  })

  it("reads dates before a zone's first change in its local mean time, to the second", () => {
    expect(Math.round(offsetAt(zoneFor('Africa/Monrovia')!, Date.UTC(1800, 0, 1)) * 60)).toBe(-(43 * 60 + 8))
  })
})

describe('a wall clock that happens twice or never (RFC 5545 3.3.5)', () => {
  it.each([
    // Clocks go back: the first occurrence, east and west of UTC alike.
    ['2026-11-01 01:15:00', 'America/New_York', '2026-11-01 05:15:00', 'EDT'],
    ['2026-10-25 01:15:00', 'Europe/London', '2026-10-25 00:15:00', 'BST'],
    ['2026-10-25 02:30:00', 'Europe/Berlin', '2026-10-25 00:30:00', 'CEST'],
    ['2027-04-04 02:30:00', 'Australia/Sydney', '2027-04-03 15:30:00', 'AEDT'],
    // Lord Howe goes back half an hour.
    ['2027-04-04 01:45:00', 'Australia/Lord_Howe', '2027-04-03 14:45:00', '+11'],
    // Clocks go forward: read with the offset before, which lands after the gap.
    ['2027-03-14 02:30:00', 'America/New_York', '2027-03-14 07:30:00', 'EDT'],
    ['2027-03-28 01:30:00', 'Europe/London', '2027-03-28 01:30:00', 'BST'],
  ])('reads %s in %s as %s UTC (%s)', (wall, zone, utc, abbr) => {
    const instant = wallToInstant(wall, zone)
    expect(instantToWall(instant, 'UTC')).toBe(utc)
    expect(abbreviation(zone, instant)).toBe(abbr)
  })

  it('gives every wall clock that happens the earliest instant that shows it, near the changes above all', () => {
    // Instants within three hours of a change of each zone from 1950 to 2100, where wall clocks repeat or are skipped.
    const near = (name: string) =>
      moment.tz.zone(name)!.untils.filter((until) => until >= Date.UTC(1950, 0, 1) && until <= Date.UTC(2100, 0, 1))
    const zones = [...ZONES, 'Europe/Berlin', 'Australia/Sydney', 'America/Sao_Paulo']
    seeded(
      fc.property(
        fc
          .constantFrom(...zones)
          .chain((zone) =>
            fc.tuple(fc.constant(zone), fc.constantFrom(...near(zone)), fc.integer({ min: -180, max: 180 })),
          ),
        ([zone, change, minutes]) => {
          const instant = change + minutes * 60_000
          const wall = instantToWall(instant, zone)
          const read = wallToInstant(wall, zone)
          // The wall clock read back names the same wall clock, at or before the instant it came from ...
          expect(instantToWall(read, zone)).toBe(wall)
          expect(read).toBeLessThanOrEqual(instant)
          // ... and no earlier instant shows it: clocks go back by half an hour, an hour or two.
          for (const back of [30, 60, 90, 120]) expect(instantToWall(read - back * 60_000, zone)).not.toBe(wall)
        },
      ),
    )
  })
})

describe('a date argument at a wall clock shown twice', () => {
  const original = Settings.now
  afterEach(() => {
    Settings.now = original
  })
  // luxon reads a repeated wall clock by the offset the zone has at the machine's clock: winter or summer decided.
  it.each([
    ['summer', Date.UTC(2026, 6, 1)],
    ['winter', Date.UTC(2026, 11, 1)],
  ])('is its first instant in every ISO form, with the machine clock in %s', (_, machine) => {
    Settings.now = () => machine
    for (const text of ['2026-10-25T01:30:00', '2026-10-25T01:30:00.000', '2026-10-25 01:30'])
      expect(parseTime(text, 'Europe/London', Date.UTC(2026, 9, 1))?.instant).toBe(Date.UTC(2026, 9, 25, 0, 30))
    expect(parseTime('2026-10-25T01:30:00.250', 'Europe/London', 0)?.instant).toBe(Date.UTC(2026, 9, 25, 0, 30, 0, 250))
    expect(parseTime('2026-10-25T01:30:00+00:00', 'Europe/London', 0)?.instant).toBe(Date.UTC(2026, 9, 25, 1, 30))
  })

  // London goes back an hour at 02:00 on 25 October 2026. luxon kept the offset of the day it started from, so
  // `yesterday 1:30am` from the 26th gave the second 01:30.
  it.each(['yesterday 1:30am', 'last sunday 1:30am', '-1 day 1:30am'])(
    'is its first instant when a relative date names it (%s)',
    (text) => {
      const now = Date.UTC(2026, 9, 26, 12) // Monday 26 October, noon in London
      expect(parseTime(text, 'Europe/London', now)?.instant).toBe(Date.UTC(2026, 9, 25, 0, 30))
    },
  )
})
