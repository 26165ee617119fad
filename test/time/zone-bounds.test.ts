import { describe, expect, it } from 'vitest'
import {
  dayEdge,
  wallClockInstant,
  wallToInstant,
  ZONE_CACHE_LIMITS,
  zoneCacheSizes,
  zoneFor,
} from '../../src/time/zone.ts'

const DAY = 86_400_000

describe('the time zone caches', () => {
  it('keep at most their bound of zone names, however many distinct names are asked', () => {
    for (let n = 0; n < ZONE_CACHE_LIMITS.zones * 2; n++) expect(zoneFor(`Not/A_Zone_${n}`)).toBeNull()
    expect(zoneCacheSizes().zones).toBeLessThanOrEqual(ZONE_CACHE_LIMITS.zones)
    expect(zoneFor('Asia/Singapore')?.name).toBe('Asia/Singapore')
  })

  it('keep at most their bound of wall clocks read, and read each as the zone does, an impossible date as none', () => {
    const start = Date.UTC(2000, 0, 1)
    for (let day = 0; day < ZONE_CACHE_LIMITS.walls + 100; day++) {
      const wall = `${new Date(start + day * DAY).toISOString().slice(0, 10)} 09:30:00`
      expect(wallClockInstant(wall, 'Europe/London')).toBe(wallToInstant(wall, 'Europe/London'))
    }
    expect(zoneCacheSizes().walls).toBeLessThanOrEqual(ZONE_CACHE_LIMITS.walls)
    expect(wallClockInstant('2026-02-30 00:00:00', 'Europe/London')).toBeNull()
    expect(wallClockInstant('2026-07-01 00:00:00', 'Asia/Singapore')).toBe(Date.UTC(2026, 5, 30, 16))
    expect(wallClockInstant('2026-07-01 00:00:00', 'Europe/London')).toBe(Date.UTC(2026, 5, 30, 23))
  })
  it('keep at most their bound of day edges per zone and of zones, whatever instants a query names', () => {
    // Relative dates (`now`) name a new instant at every request: each is a new key.
    for (let n = 0; n < ZONE_CACHE_LIMITS.dayEdges + 100; n++)
      dayEdge(Date.UTC(2026, 0, 1) + n * 1000, 'Asia/Tokyo', n % 2 === 0)
    for (let z = 0; z < ZONE_CACHE_LIMITS.edgeZones + 10; z++) dayEdge(z * DAY, `UTC+${z % 14}`, false)
    const sizes = zoneCacheSizes()
    expect(sizes.dayEdges).toBeLessThanOrEqual(ZONE_CACHE_LIMITS.dayEdges)
    expect(sizes.edgeZones).toBeLessThanOrEqual(ZONE_CACHE_LIMITS.edgeZones)
    expect(dayEdge(Date.UTC(2026, 6, 1, 12), 'Asia/Tokyo', true).wall).toBe('2026-07-01 23:59:59')
  })
})
