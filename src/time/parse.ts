import { DateTime } from 'luxon'
import { wallClockInstant, zoneFor } from './zone.ts'

/** A parsed date parameter: the instant, and whether the text carried its own time of day. */
export interface ParsedTime {
  instant: number
}

const STEP = /^([+-]?\d+) ?([a-z]+)(?: (ago))? ?/
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']
const UNITS: Record<string, string> = {
  sec: 'seconds',
  second: 'seconds',
  min: 'minutes',
  minute: 'minutes',
  hour: 'hours',
  day: 'days',
  week: 'weeks',
  fortnight: 'fortnight',
  month: 'months',
  year: 'years',
}

/**
 * Reads a date parameter the way the reference's `is_time` does: Unix timestamps,
 * `YYYY-MM-DD[ HH:MM[:SS]]`, ISO 8601 with an offset, and English relative forms (`now`, `today`,
 * `tomorrow`, `yesterday`, `+3 days`, `-1 week`, `next monday`, `next monday 9am`, `last friday`).
 * Text without an offset is read in `zone`. Returns null for anything else.
 */
export function parseTime(input: unknown, zone: string, now: number): ParsedTime | null {
  const instant = parseInstant(input, zone, now)
  return instant !== null && isInDateRange(instant) ? { instant } : null
}

/**
 * The first and last instants a date argument, or an event's start or end, may name: years 0000 to 9999, as
 * `YYYY-MM-DD` can write them, a day inside at each end (0000-01-02 00:00 to 9999-12-30 23:59:59.999 UTC).
 */
export const DATE_RANGE = {
  earliest: -62_167_219_200_000 + 86_400_000,
  latest: 253_402_300_799_999 - 86_400_000,
} as const

/**
 * Whether an instant has a four-digit year in every zone (a day inside UTC's range, for zones ahead and behind):
 * a date outside it would be served as `+010000-01-01`, which no client reads.
 */
export function isInDateRange(instant: number): boolean {
  return Number.isFinite(instant) && instant >= DATE_RANGE.earliest && instant <= DATE_RANGE.latest
}

// What a date text that names its own date starts with: the rest of it reads no clock.
const ABSOLUTE = /^\d{4}-\d{2}-\d{2}/

function parseInstant(input: unknown, zone: string, now: number): number | null {
  if (typeof input === 'number') return Number.isFinite(input) ? input * 1000 : null
  if (typeof input !== 'string') return null
  const text = input.trim().toLowerCase().replace(/\s+/g, ' ')
  if (text === '') return null
  if (/^-?\d{9,11}$/.test(text)) return Number(text) * 1000
  if (!ABSOLUTE.test(text)) return parseRelative(text, zone, now)
  return parseAbsolute(text, zone)
}

/**
 * Whether a date argument reads no clock: a timestamp, or a text that begins with its date. Any other text is a
 * relative form (`now`, `+1 week`), or no date at all.
 */
export function isAbsoluteTime(input: unknown): boolean {
  if (typeof input === 'number' || isTimestamp(input)) return true
  return typeof input === 'string' && ABSOLUTE.test(input.trim())
}

/** A text that begins with its date (`ABSOLUTE`); null when it names no real date. */
function parseAbsolute(text: string, zone: string): number | null {
  // The forms every request carries (the default window's) need no date library: plain arithmetic.
  const wall = /^\d{4}-\d{2}-\d{2}(?:[ t]\d{2}:\d{2}(?::\d{2})?)?$/.test(text) ? text.replace('t', ' ') : undefined
  if (wall !== undefined) return wallClockInstant(wall.length === 10 ? `${wall} 00:00:00` : wall, zone)
  const luxonZone = zoneFor(zone) ?? 'UTC'
  const iso = text.replace(' ', 'T')
  const date = DateTime.fromISO(iso, { zone: luxonZone, setZone: true })
  if (!date.isValid) return null
  // A text without its own offset is a wall clock in the zone: read as every wall clock is (`wallToInstant`: a
  // repeated one is its first instant). luxon would pick by the offset the zone has now, so by the season.
  if (/(?:z|[+-]\d{2}(?::?\d{2})?)$/.test(iso.slice(10))) return date.toMillis()
  return asWallClock(date, zone)
}

/**
 * The instant of a luxon date's wall clock in `zone`, read as every wall clock is (`wallToInstant`: one shown twice is
 * its first instant); luxon reads such a wall clock by the offset of the instant it started from.
 */
function asWallClock(date: DateTime, zone: string): number {
  const two = (n: number) => String(n).padStart(2, '0')
  const clock = `${String(date.year).padStart(4, '0')}-${two(date.month)}-${two(date.day)} ${two(date.hour)}:${two(date.minute)}:${two(date.second)}`
  return (wallClockInstant(clock, zone) ?? date.toMillis()) + date.millisecond
}

/** Whether a date argument is a Unix timestamp (a number, or 9 to 11 digits). */
export function isTimestamp(input: unknown): boolean {
  return typeof input === 'number' || (typeof input === 'string' && /^\s*-?\d{9,11}\s*$/.test(input))
}

function parseRelative(text: string, zone: string, now: number): number | null {
  let base = DateTime.fromMillis(now, { zone: zoneFor(zone) ?? 'UTC' })
  let rest = text
  // Whether the result is a wall clock (a day, a weekday, a calendar step or a time of day), not `now` moved by time.
  let wall = false
  const day = /^(now|today|midnight|tomorrow|yesterday|noon)\b ?/.exec(rest)
  if (day) {
    wall ||= day[1] !== 'now'
    if (day[1] !== 'now') base = base.startOf('day')
    if (day[1] === 'tomorrow') base = base.plus({ days: 1 })
    if (day[1] === 'yesterday') base = base.minus({ days: 1 })
    if (day[1] === 'noon') base = base.set({ hour: 12 })
    rest = rest.slice(day[0].length)
  }
  const weekday = /^(next|last|this)? ?(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b ?/.exec(rest)
  if (weekday) {
    const target = WEEKDAYS.indexOf(weekday[2]!) + 1
    let delta = (target - base.weekday + 7) % 7
    if (weekday[1] === 'last') delta = delta === 0 ? -7 : delta - 7
    else if (weekday[1] === 'next' && delta === 0) delta = 7
    base = base.startOf('day').plus({ days: delta })
    wall = true
    rest = rest.slice(weekday[0].length)
  }
  for (let step = STEP.exec(rest); step; step = STEP.exec(rest)) {
    const unit = UNITS[step[2]!.replace(/s$/, '')]
    if (!unit) break
    let amount = Number(step[1]) * (step[3] ? -1 : 1)
    if (unit === 'fortnight') amount *= 14
    base = base.plus({ [unit === 'fortnight' ? 'days' : unit]: amount })
    wall ||= !['seconds', 'minutes', 'hours'].includes(unit)
    rest = rest.slice(step[0].length)
  }
  const time = /^(?:at )?(\d{1,2})(?::(\d{2}))?(?::(\d{2}))? ?(am|pm)?$/.exec(rest)
  if (time && (time[4] || time[2])) {
    let hour = Number(time[1])
    if (time[4] === 'pm' && hour < 12) hour += 12
    if (time[4] === 'am' && hour === 12) hour = 0
    if (hour > 23 || Number(time[2] ?? 0) > 59) return null
    base = base.set({ hour, minute: Number(time[2] ?? 0), second: Number(time[3] ?? 0), millisecond: 0 })
    wall = true
    rest = ''
  }
  if (rest !== '' || text === rest) return null
  return wall ? asWallClock(base, zone) : base.toMillis()
}
