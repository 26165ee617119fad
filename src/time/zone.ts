import { FixedOffsetZone, IANAZone, type Zone } from 'luxon'
import moment from 'moment-timezone'

/** A wall-clock date and time as stored and served: `YYYY-MM-DD HH:MM:SS`. */
export const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/

// The caches below are module-wide: each answer is a pure function of its key, the same for every app.
// Each is bounded by count (ZONE_CACHE_LIMITS); when full, the entry kept longest goes first.
/** How many entries each cache of this module keeps at most (docs/architecture.md, "Caches"). */
export const ZONE_CACHE_LIMITS = {
  zones: 1024,
  offsetZones: 64,
  offsetsPerZone: 4096,
  abbreviations: 4096,
  walls: 4096,
  dayEdges: 4096,
} as const

/** Keeps `value` under `key`, first dropping the oldest entry when the map holds `limit`. */
function keep<K, V>(map: Map<K, V>, key: K, value: V, limit: number): V {
  if (map.size >= limit && !map.has(key)) map.delete(map.keys().next().value!)
  map.set(key, value)
  return value
}

const zones = new Map<string, Zone | null>()

/** The luxon zone for an IANA name or a `UTC+8` style offset; null when it is neither. */
export function zoneFor(name: string): Zone | null {
  let zone = zones.get(name)
  if (zone !== undefined) return zone
  const offset = /^UTC([+-]\d{1,2})(?::?(\d{2}))?$/.exec(name)
  if (offset)
    zone = FixedOffsetZone.instance(Number(offset[1]) * 60 + Math.sign(Number(offset[1])) * Number(offset[2] ?? 0))
  else zone = IANAZone.isValidZone(name) ? IANAZone.create(name) : null
  return keep(zones, name, zone, ZONE_CACHE_LIMITS.zones)
}

/** Whether a time zone name can be used for events and the site. */
export function isTimeZone(name: string): boolean {
  return zoneFor(name) !== null
}

/** Whether a string is a wall-clock time naming a real calendar date and time. */
export function isWallClock(wall: string): boolean {
  // Digits at fixed places, read in place: every date of every file is checked at each load, and a match's
  // array and strings were a fiftieth of what a start allocated.
  if (!WALL_CLOCK.test(wall)) return false
  const month = digitsAt(wall, 5, 7)
  const day = digitsAt(wall, 8, 10)
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(digitsAt(wall, 0, 4), month) &&
    digitsAt(wall, 11, 13) < 24 &&
    digitsAt(wall, 14, 16) < 60 &&
    (wall.length === 16 || digitsAt(wall, 17, 19) < 60)
  )
}

/** The number the ASCII digits of `text` from `from` to `to` write. */
function digitsAt(text: string, from: number, to: number): number {
  let n = 0
  for (let i = from; i < to; i++) n = n * 10 + text.charCodeAt(i) - 48
  return n
}

/** Days in a month (1–12) of the proleptic Gregorian calendar, as Date counts them (year 0 is a leap year). */
function daysInMonth(year: number, month: number): number {
  if (month !== 2) return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28
}

/** `Date.UTC` that keeps years 0–99 as they are (`Date.UTC` reads them as 1900–1999). */
function utcMillis(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  if (year >= 100) return Date.UTC(year, month, day, hour, minute, second)
  const date = new Date(Date.UTC(2000, month, day, hour, minute, second))
  date.setUTCFullYear(year)
  return date.getTime()
}

const HOUR = 3_600_000
const DAY = 24 * HOUR
const offsets = new Map<string, Map<number, number>>()

/**
 * The zone's UTC offset in minutes at an instant. Zones change offset a few times a year at most,
 * so offsets are cached per zone and day (per hour on the days a change happens): converting a
 * date becomes arithmetic instead of a trip through Intl, which matters when 10,000 events load.
 */
export function offsetAt(zone: Zone, instant: number): number {
  const cache = offsets.get(zone.name) ?? keep(offsets, zone.name, new Map(), ZONE_CACHE_LIMITS.offsetZones)
  const day = Math.floor(instant / DAY)
  const daily = cache.get(day)
  if (daily !== undefined) return daily
  const hourKey = -1 - Math.floor(instant / HOUR) // negative keys: the hours of days with a change
  const hourly = cache.get(hourKey)
  if (hourly !== undefined) return hourly
  const start = zone.offset(day * DAY)
  if (start === zone.offset(day * DAY + DAY - 1) && start === zone.offset(day * DAY + DAY / 2)) {
    return keep(cache, day, start, ZONE_CACHE_LIMITS.offsetsPerZone)
  }
  const hour = Math.floor(instant / HOUR) * HOUR
  const offset = zone.offset(hour)
  // An offset that changes inside the hour (a half-hour zone's switch) is looked up every time.
  if (offset !== zone.offset(hour + HOUR - 1)) return zone.offset(instant)
  return keep(cache, hourKey, offset, ZONE_CACHE_LIMITS.offsetsPerZone)
}

/** The instant (ms since the epoch) of a wall-clock time in a zone; DST gaps move forward as clocks do. */
export function wallToInstant(wall: string, zoneName: string): number {
  const m = WALL_CLOCK.exec(wall)
  const zone = zoneFor(zoneName)
  if (!m || !zone) return Number.NaN
  const local = utcMillis(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0))
  // The usual two-step guess: take the offset at the wall time read as UTC, then correct once.
  const first = offsetAt(zone, local)
  const guess = local - first * 60_000
  const second = offsetAt(zone, guess)
  if (first === second) return guess
  const corrected = local - second * 60_000
  if (offsetAt(zone, corrected) === second) return corrected
  // A wall time in a spring-forward gap: read it with the earlier offset, which lands after the gap.
  return local - Math.min(first, second) * 60_000
}

const walls = new Map<string, number | null>()

/**
 * The instant of a wall clock in a zone, or null when it names no real date (`2026-02-30`): kept by zone and
 * text, as every list request reads a few dates and most are the same few days.
 */
export function wallClockInstant(wall: string, zoneName: string): number | null {
  const key = `${zoneName} ${wall}`
  const kept = walls.get(key)
  if (kept !== undefined) return kept
  return keep(walls, key, isWallClock(wall) ? wallToInstant(wall, zoneName) : null, ZONE_CACHE_LIMITS.walls)
}

/** The first or last second of a local day: its wall clock and its instant. */
export interface DayEdge {
  readonly wall: string
  readonly instant: number
}

// Zone → [day starts, day ends], each by the instant asked about.
const edges = new Map<string, [Map<number, DayEdge>, Map<number, DayEdge>]>()

/**
 * The first (`00:00:00`) or last (`23:59:59`) second of the local day `instant` falls on in a zone, as a wall clock
 * and the instant it names (a gap moves it as `wallToInstant` does); kept by zone and instant, as every list request
 * names a day or two and most are the same few.
 */
export function dayEdge(instant: number, zoneName: string, end: boolean): DayEdge {
  const both = edges.get(zoneName) ?? keep(edges, zoneName, [new Map(), new Map()], ZONE_CACHE_LIMITS.offsetZones)
  const kept = both[end ? 1 : 0].get(instant)
  if (kept) return kept
  const wall = `${instantToWall(instant, zoneName).slice(0, 10)} ${end ? '23:59:59' : '00:00:00'}`
  const edge = Object.freeze({ wall, instant: wallToInstant(wall, zoneName) })
  return keep(both[end ? 1 : 0], instant, edge, ZONE_CACHE_LIMITS.dayEdges)
}

/** The wall clock of an instant in a zone, `YYYY-MM-DD HH:MM:SS`. */
export function instantToWall(instant: number, zoneName: string): string {
  const zone = zoneFor(zoneName)
  const shifted = zone ? instant + offsetAt(zone, instant) * 60_000 : instant
  const iso = new Date(shifted).toISOString()
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`
}

/**
 * ISO 8601 with the zone's offset at that instant, e.g. `2026-11-25T19:00:00-06:00`. An offset with seconds (local
 * mean time: Monrovia's -00:44:30 until 1972) has no ISO 8601 or RFC 3339 form: the instant is then given in UTC
 * (`1960-03-01T10:44:30Z`), the same instant exactly.
 */
export function instantToIso(instant: number, zoneName: string): string {
  const zone = zoneFor(zoneName)
  const offset = zone ? offsetAt(zone, instant) : 0
  if (!Number.isInteger(offset)) return `${new Date(instant).toISOString().slice(0, 19)}Z`
  const iso = new Date(instant + offset * 60_000).toISOString().slice(0, 19)
  const sign = offset < 0 ? '-' : '+'
  const abs = Math.abs(offset)
  return `${iso}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
}

const abbreviations = new Map<string, string>()

/**
 * The tz database's abbreviation for the zone at an instant (docs/compatibility.md §16): `HKT`, `BST`,
 * `AEDT`, and `+08`
 * where the database itself has only a number (Asia/Singapore). ICU's names come from CLDR and
 * differ (it has none for Hong Kong); moment-timezone ships the database's own, for each period.
 */
export function abbreviation(zoneName: string, instant: number): string {
  const zone = zoneFor(zoneName)
  if (!zone) return ''
  if (zone instanceof FixedOffsetZone) return zoneName
  const offset = offsetAt(zone, instant)
  const key = `${zoneName}|${offset}|${new Date(instant).getUTCFullYear()}`
  let abbr = abbreviations.get(key)
  if (abbr === undefined) {
    abbr = keep(
      abbreviations,
      key,
      moment.tz.zone(zoneName)?.abbr(instant) || numericAbbreviation(offset),
      ZONE_CACHE_LIMITS.abbreviations,
    )
  }
  return abbr
}

function numericAbbreviation(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+'
  const abs = Math.abs(offsetMinutes)
  const hours = String(Math.floor(abs / 60)).padStart(2, '0')
  return abs % 60 ? `${sign}${hours}${String(abs % 60).padStart(2, '0')}` : `${sign}${hours}`
}

/** How many entries the caches hold now: for the test that proves the bounds. */
export function zoneCacheSizes() {
  let offsetCount = 0
  for (const cache of offsets.values()) offsetCount += cache.size
  let dayEdges = 0
  for (const [starts, ends] of edges.values()) dayEdges = Math.max(dayEdges, starts.size, ends.size)
  const sizes = { zones: zones.size, offsetZones: offsets.size, offsets: offsetCount }
  return { ...sizes, abbreviations: abbreviations.size, walls: walls.size, edgeZones: edges.size, dayEdges }
}
