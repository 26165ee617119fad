import { eventTimes, postDates } from '../content/derive.ts'
import type { ContentRecord, Store } from '../content/store.ts'

/** Indexes derived from the store: events in list order, and how many published events use each term. */
export interface Indexes {
  /** Every event, ordered by UTC start, then publication date, then id (D18). */
  eventsByStart(): readonly ContentRecord[]
  /** The UTC start instants of `eventsByStart()`, for binary search. */
  startInstants(): Float64Array
  /** Published events assigned to a category or tag (WordPress counts direct assignments). */
  termCount(termId: number): number
}

interface Built {
  version: number
  events: ContentRecord[]
  starts: Float64Array
  counts: Map<number, number>
}

/** Creates the indexes over a store; they are rebuilt when the store's version moves. */
export function createIndexes(store: Store, siteZone: string): Indexes {
  let built: Built | undefined
  const current = (): Built => {
    if (!built || built.version !== store.version) built = build(store, siteZone)
    return built
  }
  return {
    eventsByStart: () => current().events,
    startInstants: () => current().starts,
    termCount: (termId) => current().counts.get(termId) ?? 0,
  }
}

function build(store: Store, siteZone: string): Built {
  const keyed = store.list('events').map((record) => ({
    record,
    start: eventTimes(record, siteZone).start,
    published: postDates(record, siteZone).published,
  }))
  keyed.sort((a, b) => a.start - b.start || a.published - b.published || a.record.id - b.record.id)
  const counts = new Map<number, number>()
  for (const { record } of keyed) {
    if ((record.source.data.status ?? 'publish') !== 'publish') continue
    const terms = [...idList(record.source.data.categories), ...idList(record.source.data.tags)]
    for (const id of new Set(terms)) counts.set(id, (counts.get(id) ?? 0) + 1)
  }
  return {
    version: store.version,
    events: keyed.map((k) => k.record),
    starts: Float64Array.from(keyed, (k) => k.start),
    counts,
  }
}

/** A relation field as a list of ids. */
export function idList(value: unknown): number[] {
  if (Array.isArray(value)) return value.filter((v): v is number => Number.isInteger(v))
  return Number.isInteger(value) ? [value as number] : []
}

/** The first index in a sorted array whose value is at least `target`. */
export function lowerBound(sorted: Float64Array, target: number): number {
  let low = 0
  let high = sorted.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if (sorted[mid]! < target) low = mid + 1
    else high = mid
  }
  return low
}
