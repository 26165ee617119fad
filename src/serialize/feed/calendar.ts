import { escape as escapeText, ICalCalendar, ICalCalendarMethod } from 'ical-generator'
import type { Memo } from '../../context/caches.ts'
import { digest } from '../memo.ts'
import type { View } from '../view.ts'
import { wallToInstant } from '../../time/zone.ts'
import { cleanText, FEED_LINE, feedText } from './clean-text.ts'
import { type FeedRequest, type Segment, walkFeed } from './feed-segments.ts'
import { feedZone, vtimezone } from './time-zones.ts'
import { merged, type Spans, widen } from './zone-windows.ts'

// A feed: one VCALENDAR (RFC 5545) of events and series, as calendar apps subscribe to it (docs/feeds.md).
// ical-generator writes the calendar's own properties and each VEVENT; each VEVENT's text is kept per event,
// and the feed is its parts in order, so a feed of 10,000 events is not written, folded and hashed anew.

/** How often subscribers should fetch the feed again: REFRESH-INTERVAL and X-PUBLISHED-TTL. */
export const FEED_REFRESH_SECONDS = 3600

/** A feed as parts (bytes) with their composed ETag. */
export interface Feed {
  parts: Uint8Array[]
  etag: string
}

/** The feed's text as parts: the calendar's head, a VTIMEZONE per zone used, every VEVENT, the end. */
export async function feedOf(view: View, request: FeedRequest): Promise<Feed> {
  const horizon = view.store.horizon()
  const walk = await walkFeed(view, request, horizon)
  const events: Memo[] = []
  for (const segment of walk.segments) {
    if ('memo' in segment) events.push(segment.memo)
    else for (const memo of segment.memos) events.push(memo)
  }
  const zoneText = walk.zoneText ?? zonesOf(view, walk.segments, events.length === 0, horizon)
  walk.keep(zoneText)
  const [head, tail] = frame(view, request)
  const parts = [head, zoneText, ...events.map((event) => event.bytes), tail]
  const etag = `"${digest([digest(head), digest(zoneText), ...events.map((event) => event.digest)].join('|'))}"`
  return { parts, etag }
}

/** A VTIMEZONE for each zone the VEVENTs use, over the instants they use it; the site's zone for an empty feed. */
function zonesOf(view: View, segments: Segment[], empty: boolean, horizon: string): Buffer {
  const spans: Spans = { byZone: new Map() }
  for (const segment of segments) {
    if ('memo' in segment) widen(spans, segment.span, 'ends')
    else for (const use of segment.uses) widen(spans, use.span, use.part, use.until)
  }
  // RFC 5545 asks a calendar for one component at least: an empty feed describes the site's zone.
  if (empty) {
    const at = wallToInstant(horizon, 'UTC')
    spans.byZone.set(feedZone(view.site.timezone), [[at, at]])
  }
  const zones = [...spans.byZone]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([zone, windows]) => vtimezone(zone, merged(windows)))
  return Buffer.from(zones.map((zone) => `${zone}\r\n`).join(''))
}

/** The calendar's properties as ical-generator writes them, split where its components go. */
function frame(view: View, request: FeedRequest): [Buffer, Buffer] {
  const calendar = new ICalCalendar({
    prodId: { company: 'Almanac', product: 'Almanac calendar feed', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
    // ical-generator writes these two as they are: they are escaped as TEXT here.
    name: escapeText(feedText(request.name, FEED_LINE), false),
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
