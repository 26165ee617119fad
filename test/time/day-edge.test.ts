import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { dayEdge, instantToWall, wallToInstant } from '../../src/time/zone.ts'

// A date argument's day edges (src/time/zone.ts, `dayEdge`), kept by zone and instant: always what the wall clock
// of the day and its reading in the zone give, asked once or again, in zones with gaps, whole skipped days and
// half hours.

const ZONES = [
  'UTC',
  'America/New_York',
  'Europe/London',
  'Pacific/Apia',
  'Asia/Kolkata',
  'Australia/Lord_Howe',
  'America/Havana',
]
const YEAR = 365.25 * 86_400_000

function direct(instant: number, zone: string, end: boolean) {
  const wall = `${instantToWall(instant, zone).slice(0, 10)} ${end ? '23:59:59' : '00:00:00'}`
  return { wall, instant: wallToInstant(wall, zone) }
}

describe('the first and last second of a local day', () => {
  it('is the day of the instant read in the zone, the same when asked again', () => {
    const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)
    const instant = fc.integer({ min: Math.round(-60 * YEAR), max: Math.round(80 * YEAR) })
    fc.assert(
      fc.property(instant, fc.constantFrom(...ZONES), fc.boolean(), (at, zone, end) => {
        const expected = direct(at, zone, end)
        expect({ ...dayEdge(at, zone, end) }).toEqual(expected)
        expect({ ...dayEdge(at, zone, end) }).toEqual(expected)
      }),
      { numRuns: 400, seed },
    )
  })

  it('moves a midnight that does not exist as the clocks do, and keeps the day Samoa skipped apart', () => {
    // Havana springs forward at midnight; Apia skipped 2011-12-30 entirely.
    const havana = wallToInstant('2024-03-10 12:00:00', 'America/Havana')
    expect(dayEdge(havana, 'America/Havana', false).wall).toBe('2024-03-10 00:00:00')
    expect(instantToWall(dayEdge(havana, 'America/Havana', false).instant, 'America/Havana')).toBe(
      '2024-03-10 01:00:00',
    )
    const apia = Date.UTC(2011, 11, 30, 12)
    expect(instantToWall(apia, 'Pacific/Apia').slice(0, 10)).toBe('2011-12-31')
    expect(dayEdge(apia, 'Pacific/Apia', true).wall).toBe('2011-12-31 23:59:59')
  })
})
