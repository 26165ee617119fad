import { ICalCalendar, ICalEvent, type ICalEventData, ICalEventStatus } from 'ical-generator'
import { eventTimes, idList, postDates } from '../../content/model/derive.ts'
import type { Kind } from '../../content/model/kinds.ts'
import { type EventStatus, type StatusDetails, statusDetailsOf } from '../../content/model/event-status.ts'
import type { ContentRecord } from '../../content/store.ts'
import type { Memo } from '../../context/caches.ts'
import { organizers, terms, venue } from '../event.ts'
import { postHead } from '../linked.ts'
import { text } from '../record.ts'
import { wallRepeats, wallToInstant } from '../../time/zone.ts'
import { siteKey } from '../urls.ts'
import type { View } from '../view.ts'
import { MAX_MARKDOWN_CHARS } from '../markdown-it.ts'
import { plainText } from './plain-text.ts'
import { FEED_LINE, feedText, parameterText } from './clean-text.ts'
import { feedZone } from './time-zones.ts'
import { WallTime } from './wall-time.ts'
import { fold } from './fold.ts'

// One event as a VEVENT (RFC 5545 section 3.6.1), written by ical-generator from the event's JSON answer, so
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
// What a VEVENT's texts hold at most (`feedText`): a title, name or address a line's worth (FEED_LINE), as the
// calendar's own name; a description as much as Markdown is read (MAX_MARKDOWN_CHARS). Past them, `…`.

/**
 * The folded VEVENT text of an event, kept while the event and every record it shows stay the same objects: a
 * change elsewhere in the store builds none of it again, so a feed of 10,000 events follows an edit cheaply.
 */
export function veventOf(record: ContentRecord, view: View, part: VeventPart): Memo {
  return view.caches.feed.json.text(record, memoKey(record, view, part), () => veventText(record, view, part))
}

/** The folded text of a VEVENT, made anew. */
export function veventText(record: ContentRecord, view: View, part: VeventPart): string {
  return fold(vevent(record, view, part).toString())
}

/** The memo key of a VEVENT: its record, language, site, part, and what it shows (`shown`). */
export function memoKey(record: ContentRecord, view: View, part: VeventPart): string {
  return `ical ${view.lang} ${siteKey(view.site)} ${part.uid} ${part.recurrenceId ?? ''} ${part.key ?? ''} ${shown(record, view)}`
}

/** The last commit that changed one of a record's files (a hand edit counts once committed); 0 outside git. */
function committed(record: ContentRecord, view: View): number {
  let last = 0
  for (const file of record.files.values()) last = Math.max(last, view.store.committedAt(file.path) ?? 0)
  return last
}

/** The records a VEVENT shows besides the event (its venue, organizers, terms and series), as their serials. */
function shown(record: ContentRecord, view: View): string {
  const data = record.source.data
  const serial = (kind: Kind, id: number) => {
    const found = view.store.get(kind, id)
    return found ? view.caches.feed.serial(found) : -1
  }
  const parts: number[] = record.series ? [view.caches.feed.serial(record.series.parent)] : []
  for (const [kind, field] of LINKS) for (const id of idList(data[field])) parts.push(serial(kind, id))
  // And when git last changed them: SEQUENCE reads it.
  const linked = [
    ...idList(data.venue).map((id) => view.store.get('venues', id)),
    ...idList(data.organizer).map((id) => view.store.get('organizers', id)),
  ]
  for (const one of [record, ...linked]) if (one) parts.push(committed(one, view))
  return parts.join(',')
}

const LINKS: [Kind, string][] = [
  ['venues', 'venue'],
  ['organizers', 'organizer'],
  ['categories', 'categories'],
  ['tags', 'tags'],
]

function vevent(record: ContentRecord, view: View, part: VeventPart): ICalEvent {
  const fields = view.store.fieldsIn(record, view.lang)!
  const shape = shownOf(record, fields, view)
  const details = statusDetailsOf(fields)
  const times = eventTimes(record, view.site.timezone)
  const dates = postDates(record, view.site.timezone)
  const modified = lastChange(record, fields, view)
  const allDay = fields.all_day === true
  const data: ICalEventData = {
    id: part.uid,
    sequence: Math.max(0, Math.floor((modified - SEQUENCE_EPOCH) / 1000)),
    stamp: WallTime.at(modified),
    lastModified: WallTime.at(modified),
    created: WallTime.at(dates.published),
    summary: feedText(text(fields.title), FEED_LINE),
    description: description(fields.description, details),
    url: String(shape.url),
    status: STATUS[details.status],
    location: location(shape, details),
    categories: (shape.categories as Shape[]).map((term) => ({ name: feedText(String(term.name), FEED_LINE) })),
    ...dateFields(times, allDay, part.rule === undefined),
  }
  const organizer = (shape.organizer as Shape[]).find((one) => typeof one.email === 'string' && one.email !== '')
  if (organizer)
    data.organizer = {
      name: parameterText(feedText(String(organizer.organizer ?? organizer.email), FEED_LINE)),
      email: feedText(String(organizer.email), FEED_LINE),
    }
  const event = new ICalEvent(data, new ICalCalendar())
  if (part.recurrenceId) recurrenceOf(event, part.recurrenceId, times.timezone, allDay, data.timezone === null)
  if (part.rule) withRule(event, part.rule)
  return event
}

/**
 * When what the VEVENT shows last changed: the event's `modified`, or its venue's or an organizer's when later
 * (a renamed venue changes the event's LOCATION). SEQUENCE, DTSTAMP and LAST-MODIFIED follow it.
 */
function lastChange(record: ContentRecord, fields: Shape, view: View): number {
  // Every linked venue and organizer that exists, shown or not: one unpublished after a rename keeps SEQUENCE up.
  const linked = [
    ...idList(fields.venue).map((id) => view.store.get('venues', id)),
    ...idList(fields.organizer).map((id) => view.store.get('organizers', id)),
  ]
  let last = 0
  for (const one of [record, ...linked]) {
    if (!one) continue
    const utc = postDates(one, view.site.timezone).modifiedUtc
    last = Math.max(last, Date.parse(`${utc.replace(' ', 'T')}Z`), committed(one, view))
  }
  return last
}

/** What the event's JSON shows of its page, venue, organizers and categories, for the same reader; no Markdown. */
function shownOf(record: ContentRecord, fields: Shape & { description: string }, view: View): Shape {
  return {
    url: postHead(record, fields, view, 'event').url,
    venue: venue(fields, view, {}),
    organizer: organizers(fields, view, {}),
    categories: terms(fields.categories, 'categories', view),
  }
}

/** The feed's STATUS for each event status (RFC 5545 has only these three). */
const STATUS: Record<EventStatus, ICalEventStatus> = {
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
  once: boolean,
): Pick<ICalEventData, 'start' | 'end' | 'allDay' | 'timezone'> {
  if (allDay) {
    const after = new Date(Date.parse(`${times.endWall.slice(0, 10)}T00:00:00Z`) + 86_400_000).toISOString()
    return {
      allDay: true,
      start: WallTime.date(times.startWall.slice(0, 10)),
      end: WallTime.date(after.slice(0, 10)),
      timezone: null,
    }
  }
  // A wall clock the zone shows twice (the hour clocks go back) is its first occurrence (RFC 5545 3.3.5, and the
  // JSON), but ical.js reads the second: such an event's start and end are written in UTC, which no client misreads.
  // Not a series' own: its rule repeats wall clocks in its zone (feed-segments.ts gives such an occurrence its own VEVENT).
  if (once && repeatsIn(times)) return { start: WallTime.at(times.start), end: WallTime.at(times.end), timezone: null }
  return { start: WallTime.at(times.start), end: WallTime.at(times.end), timezone: feedZone(times.timezone) }
}

/** Whether an event starts or ends at a wall clock its zone shows twice. */
export function repeatsIn(times: ReturnType<typeof eventTimes>): boolean {
  return wallRepeats(times.startWall, times.timezone) || wallRepeats(times.endWall, times.timezone)
}

/** The plain text of the description, after the status' reason and a mixed event's online address. */
function description(markdown: string, details: StatusDetails): string {
  const online = details.attendance === 'mixed' ? details.onlineUrl : ''
  const parts = [details.reason, online, plainText(markdown)].filter((part) => part !== '')
  return feedText(parts.join('\n\n'), MAX_MARKDOWN_CHARS)
}

/** LOCATION (with GEO) from the venue; an online event's address when it is online. */
function location(shape: Shape, details: StatusDetails): ICalEventData['location'] {
  if (details.attendance === 'online' && details.onlineUrl !== '')
    return { title: feedText(details.onlineUrl, FEED_LINE) }
  const venue = shape.venue as Shape | []
  if (Array.isArray(venue) || typeof venue.venue !== 'string' || venue.venue === '') return null
  const address = [venue.address, venue.city, venue.stateprovince, venue.zip, venue.country]
    .filter((part) => typeof part === 'string' && part !== '')
    .join(', ')
  const geo =
    typeof venue.geo_lat === 'number' && typeof venue.geo_lng === 'number'
      ? { lat: venue.geo_lat, lon: venue.geo_lng }
      : undefined
  const title = feedText(venue.venue, FEED_LINE)
  return { title, ...(address ? { address: feedText(address, FEED_LINE) } : {}), ...(geo ? { geo } : {}) }
}

/**
 * A series' RRULE, RDATE and EXDATE lines (src/serialize/feed/series-rule.ts), added before the VEVENT's end.
 * ical-generator writes RRULE alone (it has no RDATE) and calls any single line it is given an RRULE, so a series
 * listed by its dates could not go through it.
 */
function withRule(event: ICalEvent, lines: string[]): void {
  const written = event.toString.bind(event)
  event.toString = () => written().replace(/END:VEVENT\r\n$/, `${lines.join('\r\n')}\r\nEND:VEVENT\r\n`)
}

/**
 * RECURRENCE-ID: the occurrence's original start, of the same value type as the series' DTSTART. ical-generator
 * writes it as a date and time only, so an all-day series' one is given as a date (RFC 5545 section 3.8.4.4).
 */
function recurrenceOf(event: ICalEvent, start: string, zone: string, allDay: boolean, inUtc: boolean): void {
  event.recurrenceId(WallTime.at(wallToInstant(start, allDay ? 'UTC' : zone)))
  if (!allDay && !inUtc) return
  // An occurrence written in UTC (dateFields) still names its original start as the series' rule gives it, a wall
  // clock in the zone: each client then finds it where its own reading of the rule puts it.
  const line = allDay
    ? `RECURRENCE-ID;VALUE=DATE:${start.slice(0, 10).replaceAll('-', '')}`
    : `RECURRENCE-ID;TZID=${feedZone(zone)}:${start.replace(' ', 'T').replace(/[-:]/g, '')}`
  const written = event.toString.bind(event)
  event.toString = () => written().replace(/^RECURRENCE-ID[;:].*$/m, line)
}
