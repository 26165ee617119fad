import { DateTime, FixedOffsetZone, IANAZone, type Zone } from 'luxon'

/** A wall-clock date and time as stored and served: `YYYY-MM-DD HH:MM:SS`. */
export const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/

const zones = new Map<string, Zone | null>()

/** The luxon zone for an IANA name or a `UTC+8` style offset; null when it is neither. */
export function zoneFor(name: string): Zone | null {
  let zone = zones.get(name)
  if (zone !== undefined) return zone
  const offset = /^UTC([+-]\d{1,2})(?::?(\d{2}))?$/.exec(name)
  if (offset) zone = FixedOffsetZone.instance(Number(offset[1]) * 60 + Math.sign(Number(offset[1])) * Number(offset[2] ?? 0))
  else zone = IANAZone.isValidZone(name) ? IANAZone.create(name) : null
  zones.set(name, zone)
  return zone
}

/** Whether a time zone name can be used for events and the site. */
export function isTimeZone(name: string): boolean {
  return zoneFor(name) !== null
}

/** Parses a wall-clock string into its parts; null when it is not one. */
export function parseWallClock(wall: string): DateTime | null {
  const m = WALL_CLOCK.exec(wall)
  if (!m) return null
  const parts = { year: +m[1]!, month: +m[2]!, day: +m[3]!, hour: +m[4]!, minute: +m[5]!, second: +(m[6] ?? 0) }
  const date = DateTime.fromObject(parts, { zone: 'UTC' })
  // luxon rolls invalid dates over (Feb 30 → Mar 2); a real calendar date must read back the same.
  if (!date.isValid || date.day !== parts.day || date.hour !== parts.hour) return null
  return date
}

/** The instant (ms since the epoch) of a wall-clock time in a zone; DST gaps move forward as clocks do. */
export function wallToInstant(wall: string, zoneName: string): number {
  const utc = parseWallClock(wall)
  const zone = zoneFor(zoneName)
  if (!utc || !zone) return Number.NaN
  return DateTime.fromObject(utc.toObject(), { zone }).toMillis()
}

/** The wall clock of an instant in a zone, `YYYY-MM-DD HH:MM:SS`. */
export function instantToWall(instant: number, zoneName: string): string {
  const zone = zoneFor(zoneName) ?? 'UTC'
  return DateTime.fromMillis(instant, { zone }).toFormat('yyyy-MM-dd HH:mm:ss')
}

/** ISO 8601 with the zone's offset at that instant, e.g. `2026-11-25T19:00:00-06:00`. */
export function instantToIso(instant: number, zoneName: string): string {
  const zone = zoneFor(zoneName) ?? 'UTC'
  return DateTime.fromMillis(instant, { zone }).toISO({ suppressMilliseconds: true, includeOffset: true }) ?? ''
}

// ICU only knows many abbreviations under the locale of their region (SGT under en-SG, BST under en-GB).
const ABBREVIATION_LOCALES = ['en-US', 'en-GB', 'en-SG', 'en-IN', 'en-AU', 'en-NZ', 'en-CA', 'en-IE', 'en-ZA', 'ja-JP']
const abbreviations = new Map<string, string>()

/** The zone's abbreviation at an instant (`SGT`, `BST`, `CDT`); `+08`-style when no name exists. */
export function abbreviation(zoneName: string, instant: number): string {
  const zone = zoneFor(zoneName)
  if (!zone) return ''
  if (zone instanceof FixedOffsetZone) return zoneName
  const offset = zone.offset(instant)
  const key = `${zoneName}|${offset}|${new Date(instant).getUTCFullYear()}`
  let abbr = abbreviations.get(key)
  if (abbr === undefined) {
    abbr = findAbbreviation(zoneName, instant) ?? numericAbbreviation(offset)
    abbreviations.set(key, abbr)
  }
  return abbr
}

function findAbbreviation(zoneName: string, instant: number): string | undefined {
  if (zoneName === 'UTC' || zoneName === 'Etc/UTC') return 'UTC'
  for (const locale of ABBREVIATION_LOCALES) {
    const parts = new Intl.DateTimeFormat(locale, { timeZone: zoneName, timeZoneName: 'short' }).formatToParts(instant)
    const name = parts.find((part) => part.type === 'timeZoneName')?.value
    if (name && /^[A-Z]{2,5}$/.test(name)) return name
  }
  return undefined
}

function numericAbbreviation(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+'
  const abs = Math.abs(offsetMinutes)
  const hours = String(Math.floor(abs / 60)).padStart(2, '0')
  return abs % 60 ? `${sign}${hours}${String(abs % 60).padStart(2, '0')}` : `${sign}${hours}`
}
