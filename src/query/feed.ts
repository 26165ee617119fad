import { isProtected } from '../content/model/post-state.ts'
import type { ContentRecord } from '../content/store.ts'
import { instantToWall } from '../time/zone.ts'
import { listEvents } from './events.ts'
import type { QueryScope } from './scope.ts'

// What a feed holds (docs/feeds.md): the events of the list query that an anonymous caller may read, from
// FEED_PAST_DAYS before today unless the query names where it starts, with no end unless it names one; every
// page at once; a series once, for all its occurrences; password-protected events left out.

/** How far back a feed reaches by default: subscribers keep seeing what happened lately. */
export const FEED_PAST_DAYS = 30

const DAY = 86_400_000
const STARTS = ['start_date', 'starts_after', 'ends_after']

/** A feed's events and series in list order (a series where its first matching occurrence is). */
export interface FeedRecords {
  records: ContentRecord[]
  /** For each series, the original starts of its occurrences that match. */
  shown: Map<ContentRecord, Set<string>>
  /** The query names an end: an open-ended rule would reach past it. */
  bounded: boolean
}

/** The events and series of a feed, and which occurrences of each series it holds. */
export function feedRecords(values: Record<string, unknown>, given: Set<string>, scope: QueryScope): FeedRecords {
  const asked = { ...values }
  const named = new Set(given)
  // A feed has no default window: only the dates the query names, and the recent past when it names no start.
  if (!named.has('start_date')) delete asked.start_date
  if (!named.has('end_date')) delete asked.end_date
  // The list reads `ends_after` in the site's zone, to the end of its day unless `strict_dates`: it is named two days
  // early, which is before the cut in any zone either way, and the cut is made here, to the instant.
  let cut = Number.NEGATIVE_INFINITY
  if (!STARTS.some((key) => named.has(key))) {
    cut = scope.now - (scope.now % DAY) - FEED_PAST_DAYS * DAY
    asked.ends_after = instantToWall(cut - 2 * DAY, 'UTC').slice(0, 10)
    named.add('ends_after')
  }
  const anonymous: QueryScope = { ...scope, reader: 'none', password: undefined }
  const records: ContentRecord[] = []
  const shown = new Map<ContentRecord, Set<string>>()
  for (const entry of listEvents(asked, named, anonymous).all()) {
    if (entry.end <= cut) continue
    const series = entry.record.series
    const record = series?.parent ?? entry.record
    if (isProtected(record.source.data)) continue
    if (series) {
      if (!shown.has(record)) records.push(record)
      shown.set(record, (shown.get(record) ?? new Set()).add(series.start))
    } else records.push(record)
  }
  const bounded = ['end_date', 'starts_before', 'ends_before'].some((key) => named.has(key))
  return { records, shown, bounded }
}
