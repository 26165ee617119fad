import { eventTimes } from '../../content/model/derive.ts'
import { isOverridden } from '../../content/model/occurrence.ts'
import { isSeries } from '../../content/model/record-types.ts'
import type { ContentRecord } from '../../content/store.ts'
import type { Memo } from '../../context/caches.ts'
import { digest } from '../memo.ts'
import { MAX_MARKDOWN_CHARS } from '../markdown-it.ts'
import { plainEpoch } from '../plain-epoch.ts'
import type { View } from '../view.ts'
import { wallToInstant } from '../../time/zone.ts'
import { holdsVevents, type Span } from './plain-keys.ts'
import { heldVevent, plainScope, plainVevent } from './plain-vevent.ts'
import { type RuleMode, ruleMode, seriesRuleLines } from './series-rule.ts'
import { feedZone } from './time-zones.ts'
import { repeatsIn, veventOf } from './vevent.ts'
import { sameSpan, type SpanUse } from './zone-windows.ts'

// What each record of a feed puts in it (a segment: its VEVENTs and the zone spans they use), found record by
// record. An app that holds its plain events' VEVENTs (a static build's, plain-keys.ts) also keeps the segments of
// the feeds it last wrote: after an edit, a plain event that is the same record object in the same epoch puts the
// same VEVENT in, so the walk takes its segment as it was instead of looking it up (a 10,000-event feed, four
// languages of it after every edit, was most of what an edit cost), and when every record uses the spans it used
// before, the feed's time zones are those it had.

/** What a feed is of: its name, where it is served from, and its events and series in order. */
export interface FeedRequest {
  name: string
  /** The feed's own address (SOURCE). */
  url: string
  /** Its address under the API root as asked, query included (`url` may be a static file's): its last walk's key. */
  path: string
  records: readonly ContentRecord[]
  /** For a series, the original starts of the occurrences the feed holds; all it serves when absent. */
  shown?: ReadonlyMap<ContentRecord, ReadonlySet<string>>
  /** The feed's query names an end: an open-ended series is listed by its dates, not by a rule without end. */
  bounded?: boolean
}

/** A plain event's VEVENT and the span of its zone it uses. */
export interface PlainSegment {
  memo: Memo
  span: Span
}

/** A series' VEVENTs (its own and its changed occurrences') and the spans they use. */
export interface SeriesSegment {
  memos: Memo[]
  uses: SpanUse[]
}

export type Segment = PlainSegment | SeriesSegment

/** A feed's segments, one per record in order, and its time zones' text when they are those of its last walk. */
export interface Walk {
  segments: Segment[]
  zoneText?: Buffer
  /** Keeps this walk, with the zones' text it gave, as the feed's last (for an app that holds VEVENTs). */
  keep: (zoneText: Buffer) => void
}

/** VEVENTs written between two turns of the event loop: a cold feed of 10,000 events holds it in short slices. */
const SLICE = 250
/** How far past the horizon an open-ended series' zone is described: clients expand its rule for ever. */
const BEYOND_HORIZON = 10 * 365 * 86_400_000
/**
 * The last walks kept per app, and their records in all (two pointers each, beside the held VEVENTs): every calendar
 * feed of four languages of a 10,000-event site and the scoped feeds an edit touched.
 */
export const WALKS_KEPT = 64
export const WALK_RECORDS = 100_000

export interface LastWalk {
  epoch: number
  horizon: string
  records: readonly ContentRecord[]
  segments: Segment[]
  zoneText: Buffer
  byRecord?: Map<ContentRecord, Segment>
}

const lastWalks = new WeakMap<object, Map<string, LastWalk>>()

/** Each record's segment of a feed, in order. */
export async function walkFeed(view: View, request: FeedRequest, horizon: string): Promise<Walk> {
  const { records } = request
  const cache = view.caches.feed
  const kept = holdsVevents(cache) ? walksOf(cache) : undefined
  // One feed: its address as asked (a static build's links drop the query) in a language and site. Nothing of a walk
  // depends on the feed's name (an event's title, for one event's feed), so a renamed feed finds its last walk.
  const key = `${plainScope(view)} ${request.path}`
  const epoch = plainEpoch(cache, view.store)
  const found = kept?.get(key)
  let last = found?.epoch === epoch && found.horizon === horizon ? found : undefined
  const aligned = last?.records.length === records.length
  let sameZones = aligned
  let mixed = false
  const segments: Segment[] = new Array(records.length)
  let work = 0
  for (let i = 0; i < records.length; i++) {
    const record = records[i]!
    // In place when no record came or went (an edit of one event's text), else by record (one moved).
    const before = !last
      ? undefined
      : aligned
        ? last.records[i] === record && last.segments[i]
        : byRecord(last).get(record)
    if (before && 'memo' in before) {
      segments[i] = before
      continue
    }
    // A series costs about ten events the first time (its rule read twice, its occurrences written), and a long
    // description more than its event: up to ~0.1 s for one of MAX_MARKDOWN_CHARS (a content file's, hostile).
    let held = heldVevent(record, view)
    work += held ? 1 : (isSeries(record) ? 10 : 1) + textWork(record, view)
    if (work >= SLICE) {
      work = 0
      await new Promise((resolve) => setImmediate(resolve))
      // A change that moved the epoch landed meanwhile: the rest of the walk uses nothing of the last one, and this
      // walk, of two epochs, is not kept.
      if (!mixed && plainEpoch(cache, view.store) !== epoch) {
        mixed = true
        last = undefined
        sameZones = false
      }
      if (mixed) held = heldVevent(record, view)
    }
    const segment = held ?? segmentOf(record, view, request, horizon)
    segments[i] = segment
    if (sameZones && !sameUses(segment, last!.segments[i]!)) sameZones = false
  }
  return {
    segments,
    ...(sameZones ? { zoneText: last!.zoneText } : {}),
    keep(zoneText) {
      if (kept && !mixed) keepWalk(kept, key, { epoch, horizon, records, segments, zoneText })
    },
  }
}

/**
 * Keeps a walk as its feed's last. Walks of another epoch or horizon go (never used again, they would hold the
 * VEVENTs and records of a past epoch), then the oldest, down to WALKS_KEPT walks of WALK_RECORDS records in all.
 */
export function keepWalk(kept: Map<string, LastWalk>, key: string, walk: LastWalk): void {
  kept.delete(key)
  let records = walk.records.length
  for (const [other, old] of kept) {
    if (old.epoch !== walk.epoch || old.horizon !== walk.horizon) kept.delete(other)
    else records += old.records.length
  }
  if (walk.records.length > WALK_RECORDS) return
  for (const [oldest, old] of kept) {
    if (kept.size < WALKS_KEPT && records <= WALK_RECORDS) break
    kept.delete(oldest)
    records -= old.records.length
  }
  kept.set(key, walk)
}

function walksOf(cache: object): Map<string, LastWalk> {
  let walks = lastWalks.get(cache)
  if (!walks) lastWalks.set(cache, (walks = new Map()))
  return walks
}

/** The last walk's plain segments by record, made once for a walk whose records moved. */
function byRecord(last: LastWalk): Map<ContentRecord, Segment> {
  if (!last.byRecord) {
    last.byRecord = new Map()
    for (let i = 0; i < last.records.length; i++) last.byRecord.set(last.records[i]!, last.segments[i]!)
  }
  return last.byRecord
}

/** Whether two segments use the same spans, in the same ways. */
function sameUses(a: Segment, b: Segment): boolean {
  if ('memo' in a) return 'memo' in b && sameSpan(a.span, b.span)
  if ('memo' in b || a.uses.length !== b.uses.length) return false
  return a.uses.every((use, i) => {
    const other = b.uses[i]!
    return use.part === other.part && use.until === other.until && sameSpan(use.span, other.span)
  })
}

/** What a record puts in the feed, made or looked up. */
function segmentOf(record: ContentRecord, view: View, request: FeedRequest, horizon: string): Segment {
  const uid = `${record.id}@${view.site.host}`
  if (!isSeries(record)) return plainVevent(record, view, uid, (one) => spanOf(one, view))
  const wanted = request.shown?.get(record)
  const occurrences = view.store.occurrencesOf(record).filter((one) => !wanted || wanted.has(one.series!.start))
  if (occurrences.length === 0) return { memos: [], uses: [] }
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
  const until = openEnded ? wallToInstant(horizon, 'UTC') + BEYOND_HORIZON : undefined
  const uses: SpanUse[] = [{ span: spanOf(record, view), part: 'whole', ...(until === undefined ? {} : { until }) }]
  const memos = [veventOf(record, view, { uid, rule, key: digest(rule.join('\n')) })]
  const length = lengthOf(record, view)
  for (const occurrence of occurrences) {
    uses.push({ span: spanOf(occurrence, view), part: 'ends' })
    // An occurrence at a wall clock its zone shows twice gets its own VEVENT, its dates in UTC (vevent.ts); so does
    // one a DST change makes longer or shorter than the first (the JSON keeps its wall-clock end, and RFC 5545 gives
    // every instance of a rule the first one's exact length), unless the change leaves it ending before it starts
    // (an end in a skipped hour), which no VEVENT can say.
    const times = eventTimes(occurrence, view.site.timezone)
    const differs = lengthOf(occurrence, view) !== length && times.end > times.start
    const own = isOverridden(record, occurrence.series!.start) || repeatsIn(times) || differs
    if (own) memos.push(veventOf(occurrence, view, { uid, recurrenceId: occurrence.series!.start }))
  }
  return { memos, uses }
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

/** An event's exact length in ms; all-day events have none (DATE values count days, whatever a day's length). */
function lengthOf(record: ContentRecord, view: View): number {
  if (record.source.data.all_day === true) return 0
  const times = eventTimes(record, view.site.timezone)
  return times.end - times.start
}
