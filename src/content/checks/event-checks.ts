import { isTimeZone, isWallClock, WALL_CLOCK } from '../../time/zone.ts'
import type { Kind } from '../model/kinds.ts'
import { readRecurrence, SERIES_LIMITS } from '../model/recurrence.ts'
import { showValue } from '../schema/show.ts'
import { dateRangeProblems } from './date-range.ts'

/**
 * Event checks the schema cannot express: a real time zone, real dates inside the range every zone can write
 * (read in `siteZone` when the event names no zone), an end after the start, and a series' ids of its own. A date
 * the schema already refuses (missing, not YYYY-MM-DD HH:MM:SS) is its to report.
 */
export function checkEvent(kind: Kind, data: Record<string, unknown>, siteZone: string): string[] {
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
  const previous = wallClockOf(data.previous_start_date)
  if (previous && !isWallClock(previous))
    problems.push(
      `previous_start_date: ${showValue(previous)} is not a real date and time (no such day, hour or minute)`,
    )
  // Wall clocks of one zone compare as text: YYYY-MM-DD HH:MM:SS sorts in time order.
  if (start && end && isWallClock(start) && isWallClock(end) && end.replace('T', ' ') < start.replace('T', ' ')) {
    problems.push(
      `end_date: ${showValue(end)} is before start_date ${showValue(start)}; an event cannot end before it starts`,
    )
  }
  return problems.concat(dateRangeProblems(data, siteZone), seriesProblems(data))
}

/** A series' rule and dates must be usable, and its id low enough for its occurrences' ids. */
function seriesProblems(data: Record<string, unknown>): string[] {
  const value = data.recurrence
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return []
  const problems = readRecurrence(value as Record<string, unknown>).problems
  if (typeof data.id === 'number' && data.id > SERIES_LIMITS.seriesId)
    problems.push(
      `recurrence: a series needs an id up to ${SERIES_LIMITS.seriesId} (its occurrences' ids are built from it); this one is ${data.id}`,
    )
  const overrides = data.overrides
  if (overrides && typeof overrides === 'object')
    for (const [key, fields] of Object.entries(overrides)) {
      const wall = key.length === 10 ? `${key} 00:00:00` : key
      if (WALL_CLOCK.test(wall) && !isWallClock(wall)) problems.push(`overrides: ${key} is not a real date or time`)
      for (const field of ['start_date', 'end_date', 'previous_start_date']) {
        const date = (fields as Record<string, unknown> | null)?.[field]
        if (typeof date === 'string' && date !== '' && !isWallClock(date))
          problems.push(`overrides: ${key}: ${field} ${showValue(date)} is not a real date and time`)
      }
    }
  return problems
}

/** A value written as a wall clock (YYYY-MM-DD HH:MM[:SS]), real or not; undefined for anything else. */
function wallClockOf(value: unknown): string | undefined {
  return typeof value === 'string' && WALL_CLOCK.test(value) ? value : undefined
}
