import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { utcClock } from '../../src/time/utc-clock.ts'
import { instantToIso, instantToWall, offsetAt, zoneFor } from '../../src/time/zone.ts'

// FC_SEED=<n> replays a failure (fast-check prints the seed in its message).
const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)

/** What Date writes of an instant where its year has four digits; undefined where Date throws or writes another. */
function byDate(instant: number, between: string): string | undefined {
  let iso: string
  try {
    iso = new Date(instant).toISOString()
  } catch {
    return undefined
  }
  return /^\d{4}-/.test(iso) ? `${iso.slice(0, 10)}${between}${iso.slice(11, 19)}` : undefined
}

const YEAR_0 = Date.UTC(2000, 0, 1) - 2000 * 365.2425 * 86_400_000
const YEAR_10000 = Date.UTC(9999, 11, 31, 23, 59, 59, 999) + 1

/** Instants of every kind: any a Date can hold, near the ends of years 0 and 9999, fractions, and no date at all. */
const instants = fc.oneof(
  fc.integer({ min: -8.64e15, max: 8.64e15 }),
  fc.integer({ min: -62_200_000_000_000, max: 253_500_000_000_000 }),
  fc.integer({ min: -86_400_000 * 3, max: 86_400_000 * 3 }),
  fc.constantFrom(Math.round(YEAR_0), YEAR_10000).chain((edge) => fc.integer({ min: edge - 3e8, max: edge + 3e8 })),
  fc.double({ min: -8.7e15, max: 8.7e15 }),
  fc.constantFrom(0, -0, -1, 1, -0.5, 0.5, -999.9, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
  fc.constantFrom(8.64e15, -8.64e15, 8.64e15 + 1, -8.64e15 - 1, YEAR_10000, YEAR_10000 - 1),
)

describe('utcClock', () => {
  it('writes every instant as Date does, for years 0000 to 9999, and nothing for any other', () => {
    fc.assert(
      fc.property(instants, fc.constantFrom(' ', 'T'), (instant, between) => {
        expect(utcClock(instant, between)).toBe(byDate(instant, between))
      }),
      { seed, numRuns: 20_000 },
    )
  })

  // As instantToWall and instantToIso were written before utcClock, both with Date: the same texts, or the same error.
  const wallByDate = (instant: number, zone: string) => {
    const iso = new Date(instant + offsetAt(zoneFor(zone)!, instant) * 60_000).toISOString()
    return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`
  }
  const isoByDate = (instant: number, zone: string) => {
    const offset = offsetAt(zoneFor(zone)!, instant)
    if (!Number.isInteger(offset)) return `${new Date(instant).toISOString().slice(0, 19)}Z`
    const iso = new Date(instant + offset * 60_000).toISOString().slice(0, 19)
    const abs = Math.abs(offset)
    const hours = String(Math.floor(abs / 60)).padStart(2, '0')
    return `${iso}${offset < 0 ? '-' : '+'}${hours}:${String(abs % 60).padStart(2, '0')}`
  }
  const outcome = (run: () => string) => {
    try {
      return run()
    } catch (error) {
      return `throws ${(error as Error).name}`
    }
  }

  it('leaves the wall clocks and ISO texts of zones as Date wrote them, past the four-digit years too', () => {
    const zones = fc.constantFrom('UTC', 'Asia/Singapore', 'America/Chicago', 'Europe/London', 'Pacific/Kiritimati')
    fc.assert(
      fc.property(instants, zones, (instant, zone) => {
        expect(outcome(() => instantToWall(instant, zone))).toBe(outcome(() => wallByDate(instant, zone)))
        expect(outcome(() => instantToIso(instant, zone))).toBe(outcome(() => isoByDate(instant, zone)))
      }),
      { seed, numRuns: 5_000 },
    )
  })

  // The calendar's turns, where the count of days is easiest to get wrong: the days around every 1 March (leap days,
  // and century years, which leap only every fourth), each day's first and last millisecond.
  it('writes the days around every 1 March of years 0000 to 9999 as Date does', () => {
    const wrong: string[] = []
    for (let year = 0; year <= 9999; year++) {
      const march = new Date(Date.UTC(2000, 2, 1))
      march.setUTCFullYear(year)
      for (let day = -2; day <= 1; day++)
        for (const instant of [march.getTime() + day * 86_400_000, march.getTime() + (day + 1) * 86_400_000 - 1])
          if (utcClock(instant, ' ') !== byDate(instant, ' ')) wrong.push(`${instant}: ${utcClock(instant, ' ')}`)
    }
    expect(wrong).toEqual([])
  })

  it.each([
    [0, '1970-01-01 00:00:00'],
    [-2_203_891_200_000, '1900-03-01 00:00:00'],
    [4_107_542_400_000, '2100-03-01 00:00:00'],
    [-1, '1969-12-31 23:59:59'],
    [951_782_400_000, '2000-02-29 00:00:00'],
    [4_107_542_399_999, '2100-02-28 23:59:59'],
    [-62_167_219_200_000, '0000-01-01 00:00:00'],
    [253_402_300_799_999, '9999-12-31 23:59:59'],
  ])('writes %d as %s', (instant, wall) => {
    expect(utcClock(instant, ' ')).toBe(wall)
  })
})
