import { countsInTerms, eventTimes, idList, postDates, termIdsOf } from '../content/model/derive.ts'
import { statusIn, ownerIn, isProtected } from '../content/model/post-state.ts'
import { eventStatusOf } from '../content/model/event-status.ts'
import type { ContentRecord, Store } from '../content/store.ts'
import { isSeries } from '../content/model/record-types.ts'
import { LANGUAGES, type Lang } from '../languages.ts'
import { createSearchIndex } from './search.ts'
import { createRecordOrder } from './record-order.ts'
import type { EventEntry, Indexes, SearchIndex } from '../context/indexes.ts'

/** Builds the indexes over every event in the store. */
export function createIndexes(store: Store, siteZone: string): Indexes {
  const entries = new Map<number, EventEntry>()
  let byStart: EventEntry[] = []
  let byEnd: EventEntry[] = []
  const relations = {
    venues: new Map<number, Set<number>>(),
    organizers: new Map<number, Set<number>>(),
    terms: new Map<number, Set<number>>(),
  }
  const counts = new Map<number, number>()
  const searches = new Map<Lang, SearchIndex>()
  let generation = 0
  let found = new Map<string, EventEntry[]>()
  let foundIn = 0
  const order = createRecordOrder(store, siteZone)
  let derived = new Map<string, unknown>()

  const link = (entry: EventEntry, add: boolean) => {
    for (const [relation, ids] of [
      ['venues', entry.venues],
      ['organizers', entry.organizers],
      ['terms', entry.terms],
    ] as const) {
      for (const id of ids) {
        let set = relations[relation].get(id)
        if (!set) relations[relation].set(id, (set = new Set()))
        if (add) set.add(entry.id)
        else set.delete(entry.id)
      }
    }
    if (!countsInTerms(entry.record)) return
    for (const id of entry.terms) counts.set(id, (counts.get(id) ?? 0) + (add ? 1 : -1))
  }

  const remove = (id: number) => {
    const entry = entries.get(id)
    if (!entry) return
    entries.delete(id)
    link(entry, false)
    byStart.splice(byStart.indexOf(entry), 1)
    byEnd.splice(byEnd.indexOf(entry), 1)
  }

  const add = (record: ContentRecord) => {
    const entry = toEntry(record, siteZone)
    entries.set(entry.id, entry)
    link(entry, true)
    byStart.splice(insertionPoint(byStart, entry, compareStart), 0, entry)
    byEnd.splice(insertionPoint(byEnd, entry, compareEnd), 0, entry)
  }

  const initial = store.events().map((record) => toEntry(record, siteZone))
  for (const entry of initial) {
    entries.set(entry.id, entry)
    link(entry, true)
  }
  byStart = [...initial].sort(compareStart)
  byEnd = [...initial].sort(compareEnd)

  return {
    byStart: () => byStart,
    byEnd: () => byEnd,
    entry: (id) => entries.get(id),
    linked: (relation, id) => relations[relation].get(id) ?? EMPTY,
    termCount: (termId) => counts.get(termId) ?? 0,
    ordered: (kind, lang) => order.ordered(kind, lang),
    search(lang) {
      let index = searches.get(lang)
      if (!index) {
        index = createSearchIndex(store, lang, true)
        searches.set(lang, index)
      }
      return index
    },
    get generation() {
      return generation
    },
    matches(key, find) {
      if (foundIn !== generation) [found, foundIn] = [new Map(), generation]
      let list = found.get(key)
      if (!list) {
        list = find()
        if (found.size >= MATCHES_KEPT) found.delete(found.keys().next().value!)
        found.set(key, list)
      }
      return list
    },
    derived<T>(key: string, build: () => T): T {
      if (!derived.has(key)) {
        if (derived.size >= DERIVED_KEPT) derived.delete(derived.keys().next().value!)
        derived.set(key, build())
      }
      return derived.get(key) as T
    },
    update(changedFrom, changedTo) {
      // A series is not listed: its occurrences are, each told as a change of its own.
      const [before, after] = [listedOrNot(changedFrom), listedOrNot(changedTo)]
      if (!before && !after) return
      generation++
      order.update(before, after)
      if ((after ?? before)?.kind !== 'events') return
      const old = before ? entries.get(before.id) : undefined
      if (before) remove(before.id)
      if (after) add(after)
      derived = following(derived, old, after ? entries.get(after.id) : undefined)
      for (const index of searches.values()) index.update(before, after)
    },
  }
}

const EMPTY: ReadonlySet<number> = new Set()

const listedOrNot = (record: ContentRecord | undefined) => (record && !isSeries(record) ? record : undefined)

/** The derived values that follow an event's change (a `follow` method that takes it in); the others go. */
function following(derived: Map<string, unknown>, before?: EventEntry, after?: EventEntry): Map<string, unknown> {
  const kept = new Map<string, unknown>()
  for (const [key, value] of derived) {
    const follow = (value as { follow?: unknown } | undefined)?.follow
    if (typeof follow === 'function' && follow.call(value, before, after) === true) kept.set(key, value)
  }
  return kept
}
/** How many queries' matches are kept per generation (a few hundred lists of entries already in memory). */
const MATCHES_KEPT = 256
/**
 * How many derived values are kept: per kind of caller that lists events (a status set, a reader, a language) its
 * window and its bitset of listable places, and the start index's columns (docs/architecture.md §3).
 */
const DERIVED_KEPT = 16

function toEntry(record: ContentRecord, siteZone: string): EventEntry {
  const data = record.source.data
  const times = eventTimes(record, siteZone)
  let langs = 0
  LANGUAGES.forEach((lang, i) => {
    if (record.files.has(lang)) langs |= 1 << i
  })
  return {
    record,
    id: record.id,
    start: times.start,
    end: times.end,
    published: postDates(record, siteZone).published,
    status: statusIn(data),
    eventStatus: eventStatusOf(data),
    author: ownerIn(data),
    protected: isProtected(data),
    hidden: data.hide_from_listings === true,
    featured: data.featured === true,
    ticketed: data.ticketed === true,
    parent: Number.isInteger(data.post_parent) ? (data.post_parent as number) : 0,
    venues: idList(data.venue),
    organizers: idList(data.organizer),
    terms: termIdsOf(record),
    langs,
    memo: undefined,
  }
}

/** List order: UTC start, then publication date, then id (docs/compatibility.md §18). */
export function compareStart(a: EventEntry, b: EventEntry): number {
  return a.start - b.start || a.published - b.published || a.id - b.id
}

function compareEnd(a: EventEntry, b: EventEntry): number {
  return a.end - b.end || a.id - b.id
}

/** Where `entry` goes in `sorted` (ordered by `compare`): after every entry that sorts before it. */
export function insertionPoint(
  sorted: readonly EventEntry[],
  entry: EventEntry,
  compare: (a: EventEntry, b: EventEntry) => number,
): number {
  let low = 0
  let high = sorted.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if (compare(sorted[mid]!, entry) < 0) low = mid + 1
    else high = mid
  }
  return low
}

/** The first position whose instant is at least `target` (`key` reads the instant). */
export function lowerBound(sorted: readonly EventEntry[], target: number, key: 'start' | 'end'): number {
  let low = 0
  let high = sorted.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if (sorted[mid]![key] < target) low = mid + 1
    else high = mid
  }
  return low
}
