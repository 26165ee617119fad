import { IANAZone } from 'luxon'
import { describe, expect, it } from 'vitest'
import { abbreviation, offsetAt, ZONE_CACHE_LIMITS, zoneCacheSizes, zoneFor } from '../../src/time/zone.ts'

const DAY = 86_400_000

describe('the time zone caches', () => {
  it('keep at most their bound of zone names, however many distinct names are asked', () => {
    for (let n = 0; n < ZONE_CACHE_LIMITS.zones * 2; n++) expect(zoneFor(`Not/A_Zone_${n}`)).toBeNull()
    expect(zoneCacheSizes().zones).toBeLessThanOrEqual(ZONE_CACHE_LIMITS.zones)
    expect(zoneFor('Asia/Singapore')?.name).toBe('Asia/Singapore')
  })

  it('keep at most their bound of offsets, and give the zone’s own offset after dropping some', () => {
    const zone = zoneFor('Europe/London')!
    // Every day of 30 years, in and out of summer time: far more days than one zone may keep.
    for (let day = 0; day < 30 * 366; day++) offsetAt(zone, Date.UTC(2000, 0, 1) + day * DAY)
    for (let z = 0; z < ZONE_CACHE_LIMITS.offsetZones + 10; z++) offsetAt(zoneFor(`UTC+${z % 14}`)!, z * DAY)
    const sizes = zoneCacheSizes()
    expect(sizes.offsetZones).toBeLessThanOrEqual(ZONE_CACHE_LIMITS.offsetZones)
    expect(sizes.offsets).toBeLessThanOrEqual(ZONE_CACHE_LIMITS.offsetZones * ZONE_CACHE_LIMITS.offsetsPerZone)
    const london = IANAZone.create('Europe/London')
    for (const instant of [Date.UTC(2001, 6, 1), Date.UTC(2001, 0, 1), Date.UTC(2029, 6, 1, 12)])
      expect(offsetAt(zone, instant)).toBe(london.offset(instant))
  })

  it('keep at most their bound of abbreviations, and still name them', () => {
    for (let year = 1900; year < 1900 + ZONE_CACHE_LIMITS.abbreviations / 2 + 100; year++) {
      abbreviation('Europe/London', Date.UTC(year, 0, 15))
      abbreviation('Europe/London', Date.UTC(year, 6, 15))
    }
    expect(zoneCacheSizes().abbreviations).toBeLessThanOrEqual(ZONE_CACHE_LIMITS.abbreviations)
    expect(abbreviation('Europe/London', Date.UTC(2026, 6, 1))).toBe('BST')
  })
})
