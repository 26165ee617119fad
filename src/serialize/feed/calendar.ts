import { escape as escapeText, ICalCalendar, ICalCalendarMethod } from 'ical-generator'
import { eventTimes } from '../../content/model/derive.ts'
import { isOverridden } from '../../content/model/occurrence.ts'
import { isSeries } from '../../content/model/record-types.ts'
import type { ContentRecord } from '../../content/store.ts'
import { digest } from '../memo.ts'
import { MAX_MARKDOWN_CHARS } from '../markdown-it.ts'
import type { View } from '../view.ts'
import { wallToInstant } from '../../time/zone.ts'
import { type RuleMode, ruleMode, seriesRuleLines } from './series-rule.ts'
import { cleanText } from './clean-text.ts'
import { feedZone, vtimezone } from './time-zones.ts'
import { repeatsIn, veventOf } from './vevent.ts'
import { heldVevent, plainVevent } from './plain-vevent.ts'
import type { Span } from './plain-keys.ts'

// A feed: one VCALENDAR (RFC 5545) of events and series, as calendar apps subscribe to it (docs/feeds.md).
// ical-generator writes the calendar's own properties and each VEVENT; each VEVENT's text is kept per event,
// and the feed is its parts in order, so a feed of 10,000 events is not written, folded and hashed anew.

/** How often subscribers should fetch the feed again: REFRESH-INTERVAL and X-PUBLISHED-TTL. */
export const FEED_REFRESH_SECONDS = 3600

/** What a feed is of: its name, where it is served from, and its events and series in order. */
export interface FeedRequest {
  name: string
  /** The feed's own address (SOURCE). */
  url: string
  records: readonly ContentRecord[]
  /** For a series, the original starts of the occurrences the feed holds; all it serves when absent. */
  shown?: ReadonlyMap<ContentRecord, ReadonlySet<string>>
  /** The feed's query names an end: an open-ended series is listed by its dates, not by a rule without end. */
  bounded?: boolean
}

/** A feed as parts (bytes) with their composed ETag. */
export interface Feed {
  parts: Uint8Array[]
  etag: string
}

/** VEVENTs written between two turns of the event loop: a cold feed of 10,000 events holds it in short slices. */
const SLICE = 250
/** How far past the horizon an open-ended series' zone is described: clients expand its rule for ever. */
const BEYOND_HORIZON = 10 * 365 * 86_400_000

/** The feed's text as parts: the calendar's head, a VTIMEZONE per zone used, every VEVENT, the end. */
export async function feedOf(view: View, request: FeedRequest): Promise<Feed> {
  const events: { bytes: Buffer; digest: string }[] = []
  const spans: Spans = { byZone: new Map() }
  const horizon = view.store.horizon()
  let work = 0
  for (const record of request.records) {
    // A plain event whose VEVENT the app holds, as it was (plain-keys.ts): nothing to ask the store.
    const held = heldVevent(record, view)
    // A series costs about ten events the first time (its rule read twice, its occurrences written), and a long
    // description more than its event: up to ~0.1 s for one of MAX_MARKDOWN_CHARS (a content file's, hostile).
    const series = !held && isSeries(record)
    work += held ? 1 : (series ? 10 : 1) + textWork(record, view)
    if (work >= SLICE) {
      work = 0
      await new Promise((resolve) => setImmediate(resolve))
    }
    if (held) {
      widen(spans, held.span, 'ends')
      events.push(held.memo)
      continue
    }
    const uid = `${record.id}@${view.site.host}`
    if (!series) {
      const { memo, span } = plainVevent(record, view, uid, (one) => spanOf(one, view))
      widen(spans, span, 'ends')
      events.push(memo)
      continue
    }
    const wanted = request.shown?.get(record)
    const occurrences = view.store.occurrencesOf(record).filter((one) => !wanted || wanted.has(one.series!.start))
    if (occurrences.length === 0) continue
    const ruled = modeOf(record, view, horizon)
    const endless = ruled.rrule !== undefined && !/;(COUNT|UNTIL)=/.test(`;${ruled.rrule}`)
    const starts = occurrences.map((one) => one.series!.start)
    // An open rule goes on past the horizon in clients: a feed that does not hold its last served start (a query
    // with an end, or a filter) lists the series by its dates instead.
    const served = view.store.occurrencesOf(record)
    const reachesEnd = !request.bounded && starts.at(-1) === served.at(-1)?.series?.start
    const mode = endless && !reachesEnd ? { ruled: new Set<string>() } : ruled
    const openEnded = endless && reachesEnd
    const rule = seriesRuleLines(record, view, mode, starts)
    widen(spans, spanOf(record, view), 'whole', openEnded ? wallToInstant(horizon, 'UTC') + BEYOND_HORIZON : undefined)
    events.push(veventOf(record, view, { uid, rule, key: digest(rule.join('\n')) }))
    const length = lengthOf(record, view)
    for (const occurrence of occurrences) {
      widen(spans, spanOf(occurrence, view), 'ends')
      // An occurrence at a wall clock its zone shows twice gets its own VEVENT, its dates in UTC (vevent.ts); so does
      // one a DST change makes longer or shorter than the first (the JSON keeps its wall-clock end, and RFC 5545 gives
      // every instance of a rule the first one's exact length), unless the change leaves it ending before it starts
      // (an end in a skipped hour), which no VEVENT can say.
      const times = eventTimes(occurrence, view.site.timezone)
      const differs = lengthOf(occurrence, view) !== length && times.end > times.start
      const own = isOverridden(record, occurrence.series!.start) || repeatsIn(times) || differs
      if (own) events.push(veventOf(occurrence, view, { uid, recurrenceId: occurrence.series!.start }))
    }
  }
  // RFC 5545 asks a calendar for one component at least: an empty feed describes the site's zone.
  if (events.length === 0) {
    const at = wallToInstant(horizon, 'UTC')
    spans.byZone.set(feedZone(view.site.timezone), [[at, at]])
  }
  const zones = [...spans.byZone]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([zone, windows]) => vtimezone(zone, merged(windows)))
  const [head, tail] = frame(view, request)
  const zoneText = Buffer.from(zones.map((zone) => `${zone}\r\n`).join(''))
  const parts = [head, zoneText, ...events.map((event) => event.bytes), tail]
  const etag = `"${digest([digest(head), digest(zoneText), ...events.map((event) => event.digest)].join('|'))}"`
  return { parts, etag }
}

/** What writing a record's description costs, in events: a slice's worth for the longest read as Markdown. */
function textWork(record: ContentRecord, view: View): number {
  const description = view.store.fieldsIn(record, view.lang)?.description
  return typeof description === 'string' ? Math.floor((description.length * SLICE) / MAX_MARKDOWN_CHARS) : 0
}

/** How a series' rule reaches clients, kept while the series, the horizon and its number of occurrences stay. */
function modeOf(series: ContentRecord, view: View, horizon: string): RuleMode {
  const count = view.store.occurrencesOf(series).length
  return view.caches.feed.shape(series, `feed rule ${horizon} ${view.site.timezone}`, count, () =>
    ruleMode(series, view, horizon),
  )
}

/** The span of the event's zone (by its TZID) its dates take; all-day events use none. */
function spanOf(record: ContentRecord, view: View): Span {
  if (record.source.data.all_day === true) return null
  const times = eventTimes(record, view.site.timezone)
  return [feedZone(times.timezone), times.start, times.end]
}

/**
 * The instants of a feed each zone's VTIMEZONE must describe, as windows: most events share the site's zone and lie
 * close together, so a window is usually widened in place (the last zone's last window is at hand).
 */
interface Spans {
  byZone: Map<string, [number, number][]>
  zone?: string
  windows?: [number, number][]
}

/**
 * Windows closer than this are described as one: a gap costs its changes, and a window's start its own observance.
 * Far apart (a stranger's event dated in year 1), each is described alone, so a feed's zones cost what its events
 * need, not the years between them.
 */
const WINDOW_GAP = 366 * 86_400_000

/**
 * Adds a VEVENT's instants to its zone's windows: `whole` for a series (clients expand its rule over all of it, up to
 * `until`), `ends` for a VEVENT of its own dates (a client reads the zone at its start and end only).
 */
function widen(spans: Spans, span: Span, part: 'whole' | 'ends', until?: number): void {
  if (!span) return
  const [zone, start, end] = span
  let windows = zone === spans.zone ? spans.windows : spans.byZone.get(zone)
  if (!windows) spans.byZone.set(zone, (windows = []))
  const last = Math.max(end, until ?? end)
  if (part === 'whole' || last - start <= WINDOW_GAP) place(windows, start, last)
  else {
    place(windows, start, start)
    place(windows, last, last)
  }
  spans.zone = zone
  spans.windows = windows
}

/** Widens the last window to [from, to] when they are close, else adds a window (`merged` sorts them at the end). */
function place(windows: [number, number][], from: number, to: number): void {
  const last = windows.at(-1)
  if (last && from <= last[1] + WINDOW_GAP && to >= last[0] - WINDOW_GAP) {
    last[0] = Math.min(last[0], from)
    last[1] = Math.max(last[1], to)
  } else windows.push([from, to])
}

/** The windows in order, those closer than WINDOW_GAP joined. */
function merged(windows: [number, number][]): [number, number][] {
  const joined: [number, number][] = []
  for (const [from, to] of [...windows].sort((a, b) => a[0] - b[0])) {
    const last = joined.at(-1)
    if (last && from <= last[1] + WINDOW_GAP) last[1] = Math.max(last[1], to)
    else joined.push([from, to])
  }
  return joined
}

/**
 * The most characters of a feed's name (an event's title, a venue's or term's name): ical-generator folds the
 * calendar's lines a character at a time, and a content file's 4 MB title took 6.8 s to write as one.
 */
const MAX_NAME = 1_000

/** The calendar's properties as ical-generator writes them, split where its components go. */
function frame(view: View, request: FeedRequest): [Buffer, Buffer] {
  const calendar = new ICalCalendar({
    prodId: { company: 'Almanac', product: 'Almanac calendar feed', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
    // ical-generator writes these two as they are: they are escaped as TEXT here.
    name: escapeText(cleanText(request.name.slice(0, MAX_NAME)), false),
    description: view.site.description ? escapeText(cleanText(view.site.description), false) : null,
    url: view.site.url,
    source: request.url,
    scale: 'GREGORIAN',
    ttl: FEED_REFRESH_SECONDS,
    x: { 'X-WR-TIMEZONE': view.site.timezone },
  })
  const text = `${calendar.toString()}\r\n`
  const end = text.lastIndexOf('END:VCALENDAR')
  return [Buffer.from(text.slice(0, end)), Buffer.from(text.slice(end))]
}

/** An event's exact length in ms; all-day events have none (DATE values count days, whatever a day's length). */
function lengthOf(record: ContentRecord, view: View): number {
  if (record.source.data.all_day === true) return 0
  const times = eventTimes(record, view.site.timezone)
  return times.end - times.start
}
