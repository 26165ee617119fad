import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseContentPath } from '../../src/content/files/paths.ts'
import { checkPath } from '../../src/content/store/driver.ts'
import { isWallClock } from '../../src/time/zone.ts'

// Two checks every file of a tree goes through at each load, rewritten to make nothing as they run (no split
// path, no match array, no Date). Each is held here to its plain definition, on inputs built to hit its edges.

const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)
const runs = Number(process.env.FC_RUNS ?? 2000)

/** What Date makes of a wall clock: a real date and time reads back the same (Feb 30 rolls over to March). */
function wallClockByDate(wall: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(wall)
  if (!m) return false
  const [year, month, day, hour, minute, second] = [+m[1]!, +m[2]!, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0)]
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second))
  date.setUTCFullYear(year, month - 1, day)
  return (
    date.getUTCFullYear() === year &&
    date.getUTCDate() === day &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCHours() === hour &&
    minute < 60 &&
    second < 60
  )
}

/** The path check as a list of segments: none empty, `.` or `..`; no backslash, no NUL. */
function refusedBySegments(path: string): boolean {
  return path.includes('\\') || path.includes('\0') || path.split('/').some((s) => s === '' || s === '.' || s === '..')
}

/** A record file's path cut into its folder and name as a list, as the reader first did. */
function addressBySplit(relative: string): ReturnType<typeof parseContentPath> {
  const parts = relative.split(/[\\/]/)
  if (parts.length !== 2) return 'records live directly in a kind folder (events/, venues/, …)'
  // The rest is the reader's own, which cares only which folder and name it is given.
  return parseContentPath(parts.join('/'), 'en')
}

const refuses = (path: string) => {
  try {
    checkPath(path)
    return false
  } catch {
    return true
  }
}

describe('checks made of every file at a load', () => {
  it('isWallClock says what Date says of any wall clock, real or not', () => {
    const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'))
    const year = fc.oneof(
      fc.constantFrom(0, 4, 99, 100, 400, 1900, 2000, 2024, 2100, 9999),
      fc.integer({ min: 0, max: 9999 }),
    )
    const wall = fc
      .tuple(year, two(13), two(32), two(25), two(61), fc.option(two(61)), fc.constantFrom(' ', 'T'))
      .map(([y, mo, d, h, mi, s, sep]) => `${String(y).padStart(4, '0')}-${mo}-${d}${sep}${h}:${mi}${s ? `:${s}` : ''}`)
    const noise = fc.string({
      unit: fc.constantFrom('0', '1', '2', '9', '-', ':', ' ', 'T', 'x'),
      maxLength: 21,
      size: 'max',
    })
    fc.assert(
      fc.property(fc.oneof(wall, wall, noise), (text) => {
        expect(isWallClock(text)).toBe(wallClockByDate(text))
      }),
      { numRuns: runs, seed },
    )
    expect(isWallClock('2024-02-29 10:00')).toBe(true)
    expect(isWallClock('2023-02-29 10:00:00')).toBe(false)
    expect(isWallClock('2023-04-31 10:00:00')).toBe(false)
    expect(isWallClock('2023-12-31 24:00:00')).toBe(false)
  })

  it('checkPath refuses exactly the paths with an empty, `.` or `..` segment, a backslash or a NUL', () => {
    const path = fc.string({ unit: fc.constantFrom('a', '.', '/', '\\', '\0', 'é'), maxLength: 12 })
    fc.assert(
      fc.property(path, (text) => {
        expect(refuses(text)).toBe(refusedBySegments(text))
      }),
      { numRuns: runs, seed },
    )
  })

  it('parseContentPath reads a path as its folder and name, cut at its one separator', () => {
    const piece = fc.constantFrom('events', 'venues', 'a.md', 'jazz.ms.md', 'README.md', '', 'x.zz.md')
    const separator = fc.constantFrom('/', '\\')
    const path = fc
      .array(fc.tuple(piece, separator), { minLength: 1, maxLength: 4 })
      .chain((parts) => piece.map((last) => parts.map(([p, s]) => p + s).join('') + last))
    fc.assert(
      fc.property(fc.oneof(path, fc.string({ maxLength: 8 })), (text) => {
        expect(parseContentPath(text, 'en')).toEqual(addressBySplit(text))
      }),
      { numRuns: runs, seed },
    )
  })
})
