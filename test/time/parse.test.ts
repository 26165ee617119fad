import { describe, expect, it } from 'vitest'
import { isTimestamp, parseTime } from '../../src/time/parse.ts'
import { instantToWall, wallToInstant } from '../../src/time/zone.ts'

const NOW = Date.parse('2026-11-22T02:08:30Z')

describe('parseTime', () => {
  it.each([
    ['0050-03-01 10:00:00', 'UTC', '0050-03-01 10:00:00'],
    ['0000-03-01', 'UTC', '0000-03-01 00:00:00'],
    ['0099-12-31 23:59', 'UTC', '0099-12-31 23:59:00'],
    ['0004-02-29', 'UTC', '0004-02-29 00:00:00'],
    ['1999-01-01 00:00:00', 'Asia/Kuala_Lumpur', '1998-12-31 16:00:00'],
  ])('reads %s in %s as the instant of %s UTC, keeping years 0–99', (text, zone, utc) => {
    expect(instantToWall(parseTime(text, zone, NOW)!.instant, 'UTC')).toBe(utc)
  })

  it.each([
    '+100000 years',
    '-100000 years',
    '+10000000 days',
    '-99999999999',
    '0001-02-29',
    '2026-13-45',
    'next year 10000',
  ])('refuses %s: no instant with a four-digit year, or no date at all', (text) => {
    expect(parseTime(text, 'UTC', NOW)).toBeNull()
  })

  it('refuses numbers that are not finite or out of range, and reads others as Unix seconds', () => {
    expect(parseTime(Number.POSITIVE_INFINITY, 'UTC', NOW)).toBeNull()
    expect(parseTime(1e20, 'UTC', NOW)).toBeNull()
    expect(parseTime(1798794000, 'UTC', NOW)).toEqual({ instant: 1798794000000 })
  })

  it('tells Unix timestamps from other forms', () => {
    expect([1798794000, '1798794000', ' 1798794000 ', '2026-01-01', '+1 day', 'abc'].map(isTimestamp)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ])
  })

  it('converts wall clocks of years 0–99 both ways', () => {
    const instant = wallToInstant('0050-03-01 10:00:00', 'UTC')
    expect(new Date(instant).getUTCFullYear()).toBe(50)
    expect(instantToWall(instant, 'UTC')).toBe('0050-03-01 10:00:00')
  })
})
