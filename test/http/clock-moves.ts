import fc from 'fast-check'

// How the properties over kept answers and warm caches move the clock of a site in Asia/Kuala_Lumpur (local midnight
// is 16:00 UTC) whose test tree has its events in December 2026.

/**
 * How the clock moves: within a second, to either side of the next UTC midnight, of the next local midnight
 * (16:00 UTC), past the next event start (19:00 UTC), a day or nine on, a day back.
 */
export const clockMove = fc.constantFrom<number | string>(
  1,
  999,
  1000,
  'utc',
  'utc-1',
  'local',
  'local-1',
  'start',
  86_400_000,
  9 * 86_400_000,
  -86_400_000,
)

const HOUR = 3_600_000
const DAY = 86_400_000
const NEXT: Record<string, [hour: number, shift: number]> = {
  utc: [0, 0],
  'utc-1': [0, -1],
  local: [16, 0],
  'local-1': [16, -1],
  start: [19, 1],
}

/** The clock after `move`, kept around the tree's events (late November 2026 to early January 2027). */
export function movedClock(now: number, move: number | string): number {
  let next = now + (typeof move === 'number' ? move : 0)
  if (typeof move === 'string') {
    const [hour, shift] = NEXT[move]!
    next = now - (now % DAY) + hour * HOUR + shift
    if (next <= now) next += DAY
  }
  return Math.min(Math.max(next, Date.parse('2026-11-25T00:00:00Z')), Date.parse('2027-01-05T00:00:00Z'))
}
