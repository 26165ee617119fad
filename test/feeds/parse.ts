import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import ICAL from 'ical.js'

// The tests' reading of a feed: Mozilla's ical.js, which Almanac does not use to write feeds (ical-generator
// does), parses it and expands each series as a calendar app would, exceptions applied.

/** One event instance as a client sees it. */
export interface Instance {
  uid: string
  /** The original start of a series' instance (`YYYY-MM-DD HH:MM:SS`, or a date), '' for a single event. */
  recurrence: string
  summary: string
  /** Instants (ms) of a timed instance; dates (`YYYY-MM-DD`, DTEND exclusive) of an all-day one. */
  start: number | string
  end: number | string
  tzid: string | null
  location: string | null
  status: string | null
  url: string | null
  sequence: number
  description: string | null
}

/** The calendar component of a feed's text. */
export function parseFeed(text: string): ICAL.Component {
  return new ICAL.Component(ICAL.parse(text))
}

/** Every instance of every VEVENT, series expanded up to `until` (a wall clock). */
export function instancesOf(calendar: ICAL.Component, until = '2029-12-31T00:00:00'): Instance[] {
  const vevents = calendar.getAllSubcomponents('vevent')
  const exceptions = new Map<string, ICAL.Component[]>()
  for (const vevent of vevents)
    if (vevent.hasProperty('recurrence-id'))
      exceptions.set(uidOf(vevent), [...(exceptions.get(uidOf(vevent)) ?? []), vevent])
  const out: Instance[] = []
  const end = ICAL.Time.fromDateTimeString(until)
  for (const vevent of vevents) {
    if (vevent.hasProperty('recurrence-id')) continue
    const event = new ICAL.Event(vevent, { exceptions: exceptions.get(uidOf(vevent)) ?? [] })
    if (!event.isRecurring()) {
      out.push(instance(event, event.startDate, event.endDate, ''))
      continue
    }
    const iterator = event.iterator()
    for (let next = iterator.next(); next && next.compare(end) < 0; next = iterator.next()) {
      const details = event.getOccurrenceDetails(next)
      out.push(instance(details.item, details.startDate, details.endDate, wall(next)))
    }
  }
  return out
}

function uidOf(vevent: ICAL.Component): string {
  return String(vevent.getFirstPropertyValue('uid'))
}

function instance(event: ICAL.Event, start: ICAL.Time, end: ICAL.Time, recurrence: string): Instance {
  const component = event.component
  const value = (name: string) => {
    const found = component.getFirstPropertyValue(name)
    return found === null || found === undefined ? null : String(found)
  }
  return {
    uid: event.uid,
    recurrence,
    summary: event.summary,
    start: start.isDate ? start.toString() : start.toUnixTime() * 1000,
    end: end.isDate ? end.toString() : end.toUnixTime() * 1000,
    tzid: start.isDate ? null : (start.zone?.tzid ?? null),
    location: value('location'),
    status: value('status'),
    url: value('url'),
    sequence: Number(component.getFirstPropertyValue('sequence') ?? 0),
    description: value('description'),
  }
}

/** `2026-10-06T09:00:00` → `2026-10-06 09:00:00`; a date stays a date. */
function wall(time: ICAL.Time): string {
  return time.isDate ? time.toString() : time.toString().replace('T', ' ')
}

/** The `.ics` files of a static build, by path, with their text. */
export async function feedFiles(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ics')) continue
    const path = join(entry.parentPath, entry.name).slice(dir.length + 1)
    out.set(path, await readFile(join(dir, path), 'utf8'))
  }
  return out
}
