import { isTimeZone, isWallClock, WALL_CLOCK } from '../../time/zone.ts'
import type { Kind } from '../model/kinds.ts'
import { showValue } from '../schema/show.ts'

/**
 * Event checks the schema cannot express: a real time zone, real dates, and an end after the
 * start. A date the schema already refuses (missing, not YYYY-MM-DD HH:MM:SS) is its to report.
 */
export function checkEvent(kind: Kind, data: Record<string, unknown>): string[] {
  if (kind !== 'events') return []
  const problems: string[] = []
  if (typeof data.timezone === 'string' && !isTimeZone(data.timezone)) {
    problems.push(
      `timezone: ${showValue(data.timezone)} is not an IANA time zone; use a name such as Europe/London or Asia/Kuala_Lumpur`,
    )
  }
  const start = wallClockOf(data.start_date)
  const end = wallClockOf(data.end_date)
  if (start && !isWallClock(start))
    problems.push(`start_date: ${showValue(start)} is not a real date and time (no such day, hour or minute)`)
  if (end && !isWallClock(end))
    problems.push(`end_date: ${showValue(end)} is not a real date and time (no such day, hour or minute)`)
  // Wall clocks of one zone compare as text: YYYY-MM-DD HH:MM:SS sorts in time order.
  if (start && end && isWallClock(start) && isWallClock(end) && end.replace('T', ' ') < start.replace('T', ' ')) {
    problems.push(
      `end_date: ${showValue(end)} is before start_date ${showValue(start)}; an event cannot end before it starts`,
    )
  }
  return problems
}

/** A value written as a wall clock (YYYY-MM-DD HH:MM[:SS]), real or not; undefined for anything else. */
function wallClockOf(value: unknown): string | undefined {
  return typeof value === 'string' && WALL_CLOCK.test(value) ? value : undefined
}
