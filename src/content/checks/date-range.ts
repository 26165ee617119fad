import { DATE_RANGE, isInDateRange } from '../../time/parse.ts'
import { instantToWall, isTimeZone, isWallClock, WALL_CLOCK, wallToInstant } from '../../time/zone.ts'
import { OCCURRENCE_STARTS, toWall } from '../model/recurrence.ts'
import { showValue } from '../schema/show.ts'

// The dates an event may be served with. Every start and end is an instant inside the range date arguments take
// (src/time/parse.ts): past it, UTC (or a zone ahead or behind) would need a five-digit or negative year, and the
// answer would say `+010000-01-01`. A series' original starts must also fit its occurrences' ids, which count
// minutes since 1970 below 10^9 (docs/recurrence.md, "Ids"): past that, two series would share ids.

type Data = Record<string, unknown>

const FIRST = instantToWall(DATE_RANGE.earliest, 'UTC').slice(0, 10)
const LAST = instantToWall(DATE_RANGE.latest, 'UTC').slice(0, 10)
const MINUTE = 60_000
/** Dates whose every zone's instant is inside the range, five days in at each end (zones reach ±99 hours). */
const SAFE = { from: '0000-01-08', to: '9999-12-24' }

/**
 * What is wrong with an event's dates as they would be served (its start, end and previous start): read in its zone
 * (`siteZone` when it names none), all-day events over whole days, as `eventTimes` reads them. Dates that are no
 * wall clock are told of elsewhere.
 */
export function dateRangeProblems(data: Data, siteZone: string): string[] {
  // Nearly every event is thousands of years from either end, and no zone (offsets stay under five days) can take it
  // out of the range: a start load asks this of every event, so those are told by their text alone.
  const { start_date: from, end_date: to, previous_start_date: was } = data
  const safe = (wall: unknown) => typeof wall === 'string' && wall >= SAFE.from && wall <= SAFE.to
  if (safe(from) && safe(to) && (was === undefined || was === '' || safe(was)) && !data.recurrence) return []
  const zone = typeof data.timezone === 'string' && data.timezone !== '' ? data.timezone : siteZone
  const start = wallOf(data.start_date)
  const end = wallOf(data.end_date)
  if (!isTimeZone(zone) || start === undefined || end === undefined) return []
  const allDay = data.all_day === true
  const previous = wallOf(was)
  const problems = [
    ...outOfRange('start_date', allDay ? `${start.slice(0, 10)} 00:00:00` : start, zone),
    ...outOfRange('end_date', allDay ? `${end.slice(0, 10)} 23:59:59` : end, zone),
    // Served as JSON-LD's previousStartDate, in the event's zone as the start is.
    ...(previous === undefined ? [] : outOfRange('previous_start_date', previous, zone)),
  ]
  const value = data.recurrence
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return problems
  return problems.concat(seriesProblems(data, value as Data, { start, end, zone, allDay }))
}

interface First {
  start: string
  end: string
  zone: string
  allDay: boolean
}

/**
 * A series: its first start and each `rdate` before OCCURRENCE_STARTS.end (the first is served however far past
 * the horizon), the latest occurrence it could have still ending inside the range, and its overrides' dates.
 */
function seriesProblems(data: Data, value: Data, first: First): string[] {
  const problems: string[] = []
  const end = OCCURRENCE_STARTS.end.slice(0, 16)
  const why = `an occurrence's id counts the minutes from 1970 to its start, below 10^9`
  if (first.start >= OCCURRENCE_STARTS.end)
    problems.push(`start_date: a series starts before ${end} (${why}); this one starts ${showValue(first.start)}`)
  // The dates alone: reading the whole recurrence would parse its rule a second time at each load.
  const rdate = value.rdate === undefined ? [] : Array.isArray(value.rdate) ? value.rdate : [value.rdate]
  for (const date of rdate.map(String)) {
    const start = date.length === 10 ? `${date} ${first.start.slice(11)}` : toWall(date)
    if (isWallClock(start) && start >= OCCURRENCE_STARTS.end)
      problems.push(`recurrence.rdate: ${showValue(date)} is not before ${end} (${why})`)
  }
  // The latest occurrence a series could have starts the minute before the end, and keeps the first one's length.
  const span = utcMs(first.end) - utcMs(first.start)
  if (!fits(wallAt(utcMs(OCCURRENCE_STARTS.end) - MINUTE + span), first.zone, first.allDay, true))
    problems.push(
      `end_date: a series' occurrences are too long: one starting as late as ${end} would end after ${LAST} (UTC)`,
    )
  return problems.concat(overrideProblems(data.overrides, span, first))
}

/** Each override's dates (a moved start alone keeps the series' span) inside the range. */
function overrideProblems(overrides: unknown, span: number, first: First): string[] {
  if (overrides === null || typeof overrides !== 'object') return []
  const problems: string[] = []
  for (const [key, fields] of Object.entries(overrides)) {
    const start = wallOf((fields as Data | null)?.start_date)
    const end = wallOf((fields as Data | null)?.end_date) ?? (start && wallAt(utcMs(start) + span))
    if (start !== undefined && !fits(start, first.zone, first.allDay, false))
      problems.push(`overrides: ${key}: start_date ${outside(start, first.zone)}`)
    if (end !== undefined && !fits(end, first.zone, first.allDay, true))
      problems.push(`overrides: ${key}: end_date ${outside(end, first.zone)}`)
  }
  return problems
}

/** The problem of a wall clock in `zone` outside the range, as a list of none or one. */
export function outOfRange(field: string, wall: string, zone: string): string[] {
  return isInDateRange(wallToInstant(wall, zone)) ? [] : [`${field}: ${outside(wall, zone)}`]
}

/** Why a date (a wall clock in `zone`, or a date argument read there) is refused: it is outside the range. */
export function outside(wall: unknown, zone: string): string {
  return `${showValue(wall)} in ${zone} falls outside ${FIRST} to ${LAST} in UTC ${WHY_A_DAY_INSIDE}`
}

const WHY_A_DAY_INSIDE = '(a day inside the years 0000–9999, so that every time zone can write it)'

/** Whether a wall clock in `zone` (over its whole day when all-day) is an instant inside the range. */
function fits(wall: string, zone: string, allDay: boolean, isEnd: boolean): boolean {
  const served = allDay ? `${wall.slice(0, 10)} ${isEnd ? '23:59:59' : '00:00:00'}` : wall
  return isWallClock(served) && isInDateRange(wallToInstant(served, zone))
}

/** A real wall clock as `YYYY-MM-DD HH:MM:SS`; undefined for anything else. */
function wallOf(value: unknown): string | undefined {
  return typeof value === 'string' && WALL_CLOCK.test(value) && isWallClock(value) ? toWall(value) : undefined
}

/** A wall clock read as if it were UTC, in ms (years 0–99 as they are): wall-clock arithmetic without a zone. */
const utcMs = (wall: string): number => wallToInstant(wall, 'UTC')

/** The wall clock of such ms; a year past 9999 is written as no wall clock, which `fits` refuses. */
function wallAt(ms: number): string {
  return Number.isFinite(ms) ? instantToWall(ms, 'UTC') : ''
}
