import ICAL from 'ical.js'
import { DateTime, FixedOffsetZone } from 'luxon'
import { abbreviation, instantToWall, zoneFor } from '../../time/zone.ts'

// A feed's VTIMEZONE components (RFC 5545 section 3.6.5), written from the same zone data that turns the events'
// wall clocks into instants, so a client that reads the component computes the instants the JSON shows.
// Each component lists, for each window of instants the feed's events use (zone-windows.ts `widen`), the zone's offset
// at its start and then every change inside it, as observances of their own: no rule to get wrong, and exact for
// the instants the feed holds. Between windows (years apart, around a far-dated event) nothing is described.

const DAY = 86_400_000
/**
 * How far apart the zone is read while looking for changes (then each change is found to the second). Two changes
 * closer than a step, the second undoing the first, would go unseen: the closest in the tz database since 1900 are
 * 6.9 days apart (Brazil in 2000, Gaza from 2040). Before 1900 zones changed once, from local mean time, so a year.
 */
const STEP = 3 * DAY
const OLD_STEP = 365 * DAY
const YEAR_1900 = Date.UTC(1900, 0, 1)

/**
 * A zone's TZID in a feed: its name, but `UTC+05:30` as `UTC+0530`, since a colon would end the parameter (the
 * zone code reads both forms).
 */
export function feedZone(name: string): string {
  return /^UTC[+-]/.test(name) ? name.replace(':', '') : name
}

/** One change of a zone's UTC offset: the instant, and the offsets before and after it (minutes). */
interface Change {
  at: number
  from: number
  to: number
}

/**
 * The VTIMEZONE component of a zone (an IANA name or `UTC+8`) over windows of instants (in order, apart), as text;
 * '' for no zone. Each window starts with the offset in force there (an observance of its own when it differs from
 * the last one described), then every change inside it.
 */
export function vtimezone(name: string, windows: readonly (readonly [number, number])[]): string {
  const zone = zoneFor(name)
  if (!zone || windows.length === 0) return ''
  const component = new ICAL.Component('vtimezone')
  component.addPropertyWithValue('tzid', name)
  const fixed = zone instanceof FixedOffsetZone
  const first = windows[0]![0]
  let before = zone.offset(first)
  component.addSubcomponent(observance(name, first, before, before, !fixed && inDst(name, first)))
  if (fixed) return component.toString()
  for (const [from, to] of windows) {
    const now = zone.offset(from)
    if (now !== before) component.addSubcomponent(observance(name, from, before, now, inDst(name, from)))
    for (const change of changes(name, from, to))
      component.addSubcomponent(observance(name, change.at, change.from, change.to, inDst(name, change.at)))
    before = zone.offset(to)
  }
  return component.toString()
}

/** Every change of the zone's offset between two instants, found to the second (local mean time ended at one). */
export function changes(name: string, from: number, to: number): Change[] {
  const zone = zoneFor(name)!
  const found: Change[] = []
  let before = zone.offset(from)
  for (let t = from; t < to; ) {
    const next = Math.min(t + (t < YEAR_1900 ? OLD_STEP : STEP), to)
    const after = zone.offset(next)
    if (after !== before) {
      let [low, high] = [t, next]
      while (high - low > 1_000) {
        const mid = low + Math.floor((high - low) / 2_000) * 1_000
        if (zone.offset(mid) === before) low = mid
        else high = mid
      }
      found.push({ at: high, from: before, to: zone.offset(high) })
      before = zone.offset(high)
      // Another change may follow within the same step: read on from this one.
      t = high
      continue
    }
    t = next
  }
  return found
}

/** STANDARD or DAYLIGHT from `at`: DTSTART is the wall clock then, in the offset that was in force before. */
function observance(name: string, at: number, from: number, to: number, daylight: boolean): ICAL.Component {
  const part = new ICAL.Component(daylight ? 'daylight' : 'standard')
  const wall = instantToWall(at + from * 60_000, 'UTC')
  // As text (`YYYY-MM-DDTHH:MM:SS`, the year in four digits): ical.js writes the year of an ICAL.Time unpadded, and
  // `DTSTART:1-01-01T00:03:58` for an event in year 1 made the whole feed unreadable.
  const dtstart = new ICAL.Property('dtstart')
  dtstart.setValue(wall.replace(' ', 'T') as unknown as ICAL.Time)
  part.addProperty(dtstart)
  part.addProperty(offsetProperty('tzoffsetfrom', from))
  part.addProperty(offsetProperty('tzoffsetto', to))
  part.addPropertyWithValue('tzname', abbreviation(name, at) || name)
  return part
}

/**
 * TZOFFSETFROM or TZOFFSETTO, to the second when the offset has seconds (local mean time, before ~1900: Kuala
 * Lumpur's was +06:55:25), as RFC 5545 allows: an ICAL.UtcOffset writes hours and minutes only, which put such a
 * feed's instants 25 seconds from the JSON's. Given as text (`+06:55:25`), which ical.js's writer turns into
 * `+065525`.
 */
function offsetProperty(name: string, minutes: number): ICAL.Property {
  const seconds = Math.round(minutes * 60)
  const abs = Math.abs(seconds)
  const two = (n: number) => String(n).padStart(2, '0')
  const text = `${seconds < 0 ? '-' : '+'}${two(Math.floor(abs / 3600))}:${two(Math.floor(abs / 60) % 60)}`
  const property = new ICAL.Property(name)
  property.setValue((abs % 60 === 0 ? text : `${text}:${two(abs % 60)}`) as unknown as ICAL.UtcOffset)
  return property
}

function inDst(name: string, at: number): boolean {
  return DateTime.fromMillis(at, { zone: zoneFor(name)! }).isInDST
}
