import { ICalCalendar, ICalEvent, type ICalEventData, ICalEventStatus, foldLines } from 'ical-generator'
import { DateTime } from 'luxon'
import { eventTimes, idList, postDates } from '../../content/model/derive.ts'
import type { Kind } from '../../content/model/kinds.ts'
import type { ContentRecord } from '../../content/store.ts'
import type { Memo } from '../../context/caches.ts'
import { toEventResponse } from '../event.ts'
import { text } from '../record.ts'
import { siteKey } from '../urls.ts'
import type { View } from '../view.ts'
import { plainText } from './plain-text.ts'

// One event as a VEVENT (RFC 5545 §3.6.1), written by ical-generator from the event's JSON answer, so
// the feed says what the API says: the same title, instants, zone, venue, organizer, categories and URL.
// Each VEVENT's text is kept like the event's JSON (per language, site and store version).

type Shape = Record<string, unknown>

/** What makes a VEVENT more than one event: the series' rule lines, or the occurrence it replaces. */
export interface VeventPart {
  /** UID of the component: `{id}@{host}`, the series' for a changed occurrence. */
  uid: string
  /** RRULE, RDATE and EXDATE lines of a series (already in iCalendar form). */
  rule?: string[]
  /** The original start (wall clock) of the occurrence a changed occurrence replaces. */
  recurrenceId?: string
  /** Part of the memo key: what the rule lines depend on besides the record (the horizon). */
  key?: string
}

/** 2020-01-01T00:00:00Z: SEQUENCE counts whole seconds of `modified` from here. */
const SEQUENCE_EPOCH = Date.UTC(2020, 0, 1)

/**
 * The folded VEVENT text of an event, kept while the event and every record it shows stay the same objects: a
 * change elsewhere in the store builds none of it again, so a feed of 10,000 events follows an edit cheaply.
 */
export function veventOf(record: ContentRecord, view: View, part: VeventPart): Memo {
  const key = `ical ${view.lang} ${siteKey(view.site)} ${part.uid} ${part.recurrenceId ?? ''} ${part.key ?? ''} ${shown(record, view)}`
  return view.caches.memo.json.text(record, key, () => fold(vevent(record, view, part).toString()))
}

/** The records a VEVENT shows besides the event (its venue, organizers, terms and series), as their serials. */
function shown(record: ContentRecord, view: View): string {
  const data = record.source.data
  const serial = (kind: Kind, id: number) => {
    const found = view.store.get(kind, id)
    return found ? view.caches.memo.serial(found) : -1
  }
  const parts: number[] = record.series ? [view.caches.memo.serial(record.series.parent)] : []
  for (const [kind, field] of LINKS) for (const id of idList(data[field])) parts.push(serial(kind, id))
  return parts.join(',')
}

const LINKS: [Kind, string][] = [
  ['venues', 'venue'],
  ['organizers', 'organizer'],
  ['categories', 'categories'],
  ['tags', 'tags'],
]

/** Lines past 75 octets folded by the library; most are short, and folding every character costs. */
function fold(component: string): string {
  return component
    .split('\r\n')
    .map((line) => (Buffer.byteLength(line) > 75 ? foldLines(line) : line))
    .join('\r\n')
}

function vevent(record: ContentRecord, view: View, part: VeventPart): ICalEvent {
  const shape = toEventResponse(record, view)
  const fields = view.store.fieldsIn(record, view.lang)!
  const times = eventTimes(record, view.site.timezone)
  const dates = postDates(record, view.site.timezone)
  const modified = lastChange(record, shape, view)
  const allDay = fields.all_day === true
  const data: ICalEventData = {
    id: part.uid,
    sequence: Math.max(0, Math.floor((modified - SEQUENCE_EPOCH) / 1000)),
    stamp: DateTime.fromMillis(modified, { zone: 'utc' }),
    lastModified: DateTime.fromMillis(modified, { zone: 'utc' }),
    created: DateTime.fromMillis(dates.published, { zone: 'utc' }),
    summary: text(fields.title),
    description: description(fields.description, shape),
    url: String(shape.url),
    status: STATUS[String(shape.event_status ?? 'scheduled')] ?? ICalEventStatus.CONFIRMED,
    location: location(shape),
    categories: (shape.categories as Shape[]).map((term) => ({ name: String(term.name) })),
    ...dateFields(times, allDay),
  }
  const organizer = (shape.organizer as Shape[]).find((one) => typeof one.email === 'string' && one.email !== '')
  if (organizer)
    data.organizer = { name: String(organizer.organizer ?? organizer.email), email: String(organizer.email) }
  if (part.rule) data.repeating = part.rule.join('\r\n')
  const event = new ICalEvent(data, new ICalCalendar())
  if (part.recurrenceId) recurrenceOf(event, part.recurrenceId, times.timezone, allDay)
  return event
}

/**
 * When what the VEVENT shows last changed: the event's `modified`, or its venue's or an organizer's when later
 * (a renamed venue changes the event's LOCATION). SEQUENCE, DTSTAMP and LAST-MODIFIED follow it.
 */
function lastChange(record: ContentRecord, shape: Shape, view: View): number {
  const venue = shape.venue as Shape | []
  const linked = [
    ...(Array.isArray(venue) ? [] : [view.store.get('venues', Number(venue.id))]),
    ...(shape.organizer as Shape[]).map((organizer) => view.store.get('organizers', Number(organizer.id))),
  ]
  let last = 0
  for (const one of [record, ...linked]) {
    if (!one) continue
    const utc = postDates(one, view.site.timezone).modifiedUtc
    last = Math.max(last, Date.parse(`${utc.replace(' ', 'T')}Z`))
  }
  return last
}

/** The feed's STATUS for each event status (RFC 5545 has only these three). */
const STATUS: Record<string, ICalEventStatus> = {
  scheduled: ICalEventStatus.CONFIRMED,
  rescheduled: ICalEventStatus.CONFIRMED,
  moved_online: ICalEventStatus.CONFIRMED,
  postponed: ICalEventStatus.TENTATIVE,
  cancelled: ICalEventStatus.CANCELLED,
}

/** DTSTART/DTEND: in the event's zone (TZID), or as dates for an all-day event (DTEND the day after its last). */
function dateFields(
  times: ReturnType<typeof eventTimes>,
  allDay: boolean,
): Pick<ICalEventData, 'start' | 'end' | 'allDay' | 'timezone'> & { start: DateTime } {
  if (allDay) {
    const day = (wall: string) => DateTime.fromISO(wall.slice(0, 10), { zone: 'utc' })
    return { allDay: true, start: day(times.startWall), end: day(times.endWall).plus({ days: 1 }), timezone: null }
  }
  return {
    start: DateTime.fromMillis(times.start, { zone: 'utc' }),
    end: DateTime.fromMillis(times.end, { zone: 'utc' }),
    timezone: times.timezone,
  }
}

/** The plain text of the description, after the status' reason and an online event's address. */
function description(markdown: string, shape: Shape): string {
  const lines = [shape.event_status_reason, shape.attendance_mode === 'mixed' ? shape.online_url : '']
  return [...lines.filter((line) => typeof line === 'string' && line !== ''), plainText(markdown)]
    .filter((part) => part !== '')
    .join('\n\n')
}

/** LOCATION (with GEO) from the venue; an online event's address when it is online. */
function location(shape: Shape): ICalEventData['location'] {
  const online = shape.attendance_mode === 'online' && typeof shape.online_url === 'string' && shape.online_url !== ''
  if (online) return { title: String(shape.online_url) }
  const venue = shape.venue as Shape | []
  if (Array.isArray(venue) || typeof venue.venue !== 'string' || venue.venue === '') return null
  const address = [venue.address, venue.city, venue.stateprovince, venue.zip, venue.country]
    .filter((part) => typeof part === 'string' && part !== '')
    .join(', ')
  const geo =
    typeof venue.geo_lat === 'number' && typeof venue.geo_lng === 'number'
      ? { lat: venue.geo_lat, lon: venue.geo_lng }
      : undefined
  return { title: venue.venue, ...(address ? { address } : {}), ...(geo ? { geo } : {}) }
}

/**
 * RECURRENCE-ID: the occurrence's original start, of the same value type as the series' DTSTART. ical-generator
 * writes it as a date and time only, so an all-day series' one is given as a date (RFC 5545 §3.8.4.4).
 */
function recurrenceOf(event: ICalEvent, start: string, zone: string, allDay: boolean): void {
  const wall = DateTime.fromISO(start.replace(' ', 'T'), { zone: allDay ? 'utc' : zone })
  event.recurrenceId(wall)
  if (!allDay) return
  const written = event.toString.bind(event)
  const date = start.slice(0, 10).replaceAll('-', '')
  event.toString = () => written().replace(/^RECURRENCE-ID[;:].*$/m, `RECURRENCE-ID;VALUE=DATE:${date}`)
}
