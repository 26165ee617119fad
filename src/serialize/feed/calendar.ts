import { ICalCalendar, ICalCalendarMethod } from 'ical-generator'
import { eventTimes } from '../../content/model/derive.ts'
import { isOverridden } from '../../content/model/occurrence.ts'
import { horizonAt } from '../../content/model/recurrence.ts'
import { isSeries } from '../../content/model/record-types.ts'
import type { ContentRecord } from '../../content/store.ts'
import { digest } from '../memo.ts'
import type { View } from '../view.ts'
import { wallToInstant } from '../../time/zone.ts'
import { seriesRuleLines } from './series-rule.ts'
import { vtimezone } from './time-zones.ts'
import { veventOf } from './vevent.ts'

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
}

/** A feed as parts (bytes) with their composed ETag. */
export interface Feed {
  parts: Uint8Array[]
  etag: string
}

/** VEVENTs written between two turns of the event loop: a cold feed of 10,000 events holds it in short slices. */
const SLICE = 250

/** The feed's text as parts: the calendar's head, a VTIMEZONE per zone used, every VEVENT, the end. */
export async function feedOf(view: View, request: FeedRequest): Promise<Feed> {
  const events: { bytes: Buffer; digest: string }[] = []
  const spans = new Map<string, [number, number]>()
  const horizon = wallToInstant(horizonAt(view.now), 'UTC')
  for (const [i, record] of request.records.entries()) {
    if (i % SLICE === SLICE - 1) await new Promise((resolve) => setImmediate(resolve))
    const series = isSeries(record)
    note(spans, record, view, series ? horizon : undefined)
    const uid = `${record.id}@${view.site.host}`
    const rule = series ? ruleOf(record, view, horizon) : undefined
    events.push(veventOf(record, view, { uid, ...(rule ? { rule: rule.lines, key: rule.key } : {}) }))
    if (!series) continue
    for (const occurrence of view.store.occurrencesOf(record)) {
      if (!isOverridden(record, occurrence.series!.start)) continue
      note(spans, occurrence, view)
      events.push(veventOf(occurrence, view, { uid, recurrenceId: occurrence.series!.start }))
    }
  }
  const zones = [...spans].sort(([a], [b]) => a.localeCompare(b)).map(([zone, [from, to]]) => vtimezone(zone, from, to))
  const [head, tail] = frame(view, request)
  const zoneText = Buffer.from(zones.map((zone) => `${zone}\r\n`).join(''))
  const parts = [head, zoneText, ...events.map((event) => event.bytes), tail]
  const etag = `"${digest([digest(head), digest(zoneText), ...events.map((event) => event.digest)].join('|'))}"`
  return { parts, etag }
}

/** A series' rule lines, kept while the series, the horizon and its number of occurrences stay the same. */
function ruleOf(series: ContentRecord, view: View, horizon: number): { lines: string[]; key: string } {
  const count = view.store.occurrencesOf(series).length
  return view.caches.feed.shape(series, `feed rule ${horizon} ${view.site.timezone}`, count, () => {
    const lines = seriesRuleLines(series, view)
    return { lines, key: digest(lines.join('\n')) }
  })
}

/** Widens the span of the event's zone to its dates (to `until` for a series); all-day events use none. */
function note(spans: Map<string, [number, number]>, record: ContentRecord, view: View, until?: number): void {
  if (record.source.data.all_day === true) return
  const times = eventTimes(record, view.site.timezone)
  const [from, to] = spans.get(times.timezone) ?? [times.start, times.end]
  spans.set(times.timezone, [Math.min(from, times.start), Math.max(to, times.end, until ?? times.end)])
}

/** The calendar's properties as ical-generator writes them, split where its components go. */
function frame(view: View, request: FeedRequest): [Buffer, Buffer] {
  const calendar = new ICalCalendar({
    prodId: { company: 'Almanac', product: 'Almanac calendar feed', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
    name: request.name,
    description: view.site.description ?? null,
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
