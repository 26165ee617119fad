import ICAL from 'ical.js'
import { DateTime, FixedOffsetZone } from 'luxon'
import { abbreviation, instantToWall, offsetAt, zoneFor } from '../../time/zone.ts'

// A feed's VTIMEZONE components (RFC 5545 section 3.6.5), written from the same zone data that turns the events'
// wall clocks into instants, so a client that reads the component computes the instants the JSON shows.
// Each component lists the zone's offset at the start of the span and then every change inside it, as
// observances of their own: no rule to get wrong, and exact for the span the feed covers.

const HOUR = 3_600_000
const STEP = 12 * HOUR

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

/** The VTIMEZONE component of a zone (an IANA name or `UTC+8`) over [from, to], as text; '' for no zone. */
export function vtimezone(name: string, from: number, to: number): string {
  const zone = zoneFor(name)
  if (!zone) return ''
  const component = new ICAL.Component('vtimezone')
  component.addPropertyWithValue('tzid', name)
  const first = offsetAt(zone, from)
  component.addSubcomponent(
    observance(name, from, first, first, !(zone instanceof FixedOffsetZone) && inDst(name, from)),
  )
  if (!(zone instanceof FixedOffsetZone))
    for (const change of changes(name, from, to))
      component.addSubcomponent(observance(name, change.at, change.from, change.to, inDst(name, change.at)))
  return component.toString()
}

/** Every change of the zone's offset between two instants, found to the minute. */
export function changes(name: string, from: number, to: number): Change[] {
  const zone = zoneFor(name)!
  const found: Change[] = []
  let before = offsetAt(zone, from)
  for (let t = from; t < to; t += STEP) {
    const next = Math.min(t + STEP, to)
    const after = offsetAt(zone, next)
    if (after === before) continue
    let [low, high] = [t, next]
    while (high - low > 60_000) {
      const mid = low + Math.floor((high - low) / 120_000) * 60_000
      if (offsetAt(zone, mid) === before) low = mid
      else high = mid
    }
    found.push({ at: high, from: before, to: after })
    before = after
  }
  return found
}

/** STANDARD or DAYLIGHT from `at`: DTSTART is the wall clock then, in the offset that was in force before. */
function observance(name: string, at: number, from: number, to: number, daylight: boolean): ICAL.Component {
  const part = new ICAL.Component(daylight ? 'daylight' : 'standard')
  const wall = instantToWall(at + from * 60_000, 'UTC')
  part.addPropertyWithValue('dtstart', ICAL.Time.fromDateTimeString(wall.replace(' ', 'T')))
  part.addPropertyWithValue('tzoffsetfrom', ICAL.UtcOffset.fromSeconds(from * 60))
  part.addPropertyWithValue('tzoffsetto', ICAL.UtcOffset.fromSeconds(to * 60))
  part.addPropertyWithValue('tzname', abbreviation(name, at) || name)
  return part
}

function inDst(name: string, at: number): boolean {
  return DateTime.fromMillis(at, { zone: zoneFor(name)! }).isInDST
}
