import { FixedOffsetZone, type Zone } from 'luxon'
import { TzZone, tzZone } from './tz-data.ts'
import { utcClock } from './utc-clock.ts'

/** A wall-clock date and time as stored and served: `YYYY-MM-DD HH:MM:SS`. */
export const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/

// The caches below are module-wide: each answer is a pure function of its key, the same for every app.
// Each is bounded by count (ZONE_CACHE_LIMITS); when full, the entry kept longest goes first.
/** How many entries each cache of this module keeps at most (docs/architecture.md, "Caches"). */
export const ZONE_CACHE_LIMITS = {
  zones: 1024,
  edgeZones: 64,
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

/** The luxon zone for a tz database name (tz-data.ts) or a `UTC+8` style offset; null when it is neither. */
export function zoneFor(name: string): Zone | null {
  let zone = zones.get(name)
  if (zone !== undefined) return zone
  const offset = /^UTC([+-]\d{1,2})(?::?(\d{2}))?$/.exec(name)
  if (offset)
    zone = FixedOffsetZone.instance(Number(offset[1]) * 60 + Math.sign(Number(offset[1])) * Number(offset[2] ?? 0))
  else zone = tzZone(name)
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

const DAY = 86_400_000

/** The zone's UTC offset in minutes at an instant (a binary search of the zone's periods: no cache needed). */
export function offsetAt(zone: Zone, instant: number): number {
  return zone.offset(instant)
}

/**
 * The instant (ms since the epoch) of a wall-clock time in a zone, as RFC 5545 (3.3.5) reads a DATE-TIME with a
 * TZID: a wall clock that happens twice (clocks went back) is its first occurrence, one that never happens (clocks
 * went forward) is read with the offset before the change, which lands after the gap, as clocks move.
 */
export function wallToInstant(wall: string, zoneName: string): number {
  const zone = zoneFor(zoneName)
  if (!zone || !WALL_CLOCK.test(wall)) return Number.NaN
  // Digits at fixed places, read in place (as `isWallClock` does): the match's array and its six strings took about
  // half of the reading's time.
  const local = utcMillis(
    digitsAt(wall, 0, 4),
    digitsAt(wall, 5, 7) - 1,
    digitsAt(wall, 8, 10),
    digitsAt(wall, 11, 13),
    digitsAt(wall, 14, 16),
    wall.length === 16 ? 0 : digitsAt(wall, 17, 19),
  )
  // The offsets a day either side: a change near the wall clock is between them (a zone's changes are days apart).
  const before = zone.offset(local - DAY)
  const after = zone.offset(local + DAY)
  const early = local - before * 60_000
  const late = local - after * 60_000
  if (before === after) return early
  const earlyHappens = zone.offset(early) === before
  const lateHappens = zone.offset(late) === after
  if (earlyHappens && lateHappens) return Math.min(early, late)
  return lateHappens && !earlyHappens ? late : early
}

/** The second instant of a wall clock a zone shows twice (in the hour clocks go back); undefined for any other. */
export function secondInstant(wall: string, zoneName: string): number | undefined {
  const zone = zoneFor(zoneName)
  const first = wallToInstant(wall, zoneName)
  if (!zone || Number.isNaN(first)) return undefined
  const later = first + (zone.offset(first) - zone.offset(first + DAY)) * 60_000
  return later > first && instantToWall(later, zoneName) === wall ? later : undefined
}

/** Whether a wall clock happens twice in a zone: `wallToInstant` gives the first. */
export function wallRepeats(wall: string, zoneName: string): boolean {
  return secondInstant(wall, zoneName) !== undefined
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
  const both = edges.get(zoneName) ?? keep(edges, zoneName, [new Map(), new Map()], ZONE_CACHE_LIMITS.edgeZones)
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
  const clock = utcClock(shifted, ' ')
  if (clock !== undefined) return clock
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
  const shifted = instant + offset * 60_000
  const iso = utcClock(shifted, 'T') ?? new Date(shifted).toISOString().slice(0, 19)
  const sign = offset < 0 ? '-' : '+'
  const abs = Math.abs(offset)
  return `${iso}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
}

/**
 * The tz database's abbreviation for the zone at an instant (docs/compatibility.md §16): `HKT`, `BST`,
 * `AEDT`, and `+08`
 * where the database itself has only a number (Asia/Singapore). ICU's names come from CLDR and
 * differ (it has none for Hong Kong); moment-timezone ships the database's own, for each period, in the
 * same period lookup that gives the offset (tz-data.ts).
 */
export function abbreviation(zoneName: string, instant: number): string {
  const zone = zoneFor(zoneName)
  if (!zone) return ''
  if (zone instanceof FixedOffsetZone) return zoneName
  return (zone instanceof TzZone && zone.abbreviation(instant)) || numericAbbreviation(offsetAt(zone, instant))
}

function numericAbbreviation(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+'
  const abs = Math.abs(offsetMinutes)
  const hours = String(Math.floor(abs / 60)).padStart(2, '0')
  return abs % 60 ? `${sign}${hours}${String(abs % 60).padStart(2, '0')}` : `${sign}${hours}`
}

/** How many entries the caches hold now: for the test that proves the bounds. */
export function zoneCacheSizes() {
  let dayEdges = 0
  for (const [starts, ends] of edges.values()) dayEdges = Math.max(dayEdges, starts.size, ends.size)
  return { zones: zones.size, walls: walls.size, edgeZones: edges.size, dayEdges }
}
