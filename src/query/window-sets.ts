import type { EventEntry, IdSet } from '../context/indexes.ts'
import { isLocked } from '../serialize/protect.ts'
import type { EventWindow, WindowSet } from './event-window.ts'
import { readableIds, termIds, union } from './event-relations.ts'
import { compareStart, insertionPoint } from './indexes.ts'
import type { QueryScope } from './scope.ts'

// A list filtered by one id set besides its dates (a category, a tag, a venue, an organizer or a search) is a
// window's page too: the set's events are kept as their places in the window's regular list, so the dates cut
// them by binary search and only the page is read (docs/architecture.md §3).

/** The filters that are one id set each, and the relation their ids name. */
const SET_FILTERS: Record<string, 'terms' | 'venues' | 'organizers' | 'search'> = {
  categories: 'terms',
  tags: 'terms',
  venue: 'venues',
  organizer: 'organizers',
  search: 'search',
}

/** How many sets' places one window keeps, and their bytes together (4 bytes a place); emptied on every change. */
export const PLACES_KEPT = { sets: 256, bytes: 4 * 1024 * 1024 }

/** A query's one id set: the key its places are kept under (the resolved ids, or the search), and the set. */
export interface SingleSet {
  key: string
  /** The set itself, made only when its places are not kept (a union of a parent category's is a new Set). */
  set: () => IdSet
  /** Whether an event is in the set, read from its entry. */
  holds: (e: EventEntry) => boolean
  /** A password blanks this filter's fields (docs/compatibility.md §21): a locked event does not match it. */
  blanked: boolean
}

/**
 * The one id set a query filters on besides the arguments a window answers alone (`windowOnly`), or undefined
 * when it has none or more.
 */
export function singleSet(
  values: Record<string, unknown>,
  scope: QueryScope,
  windowOnly: Set<string>,
): SingleSet | undefined {
  let name: string | undefined
  for (const key in values) {
    if (values[key] === undefined || windowOnly.has(key)) continue
    if (name !== undefined || SET_FILTERS[key] === undefined) return undefined
    name = key
  }
  if (name === undefined) return undefined
  const relation = SET_FILTERS[name]!
  if (relation === 'search') {
    const search = String(values.search)
    const set = scope.indexes.search(scope.lang).match(search)
    return { key: `search ${scope.lang} ${search}`, set: () => set, holds: (e) => set.has(e.id), blanked: false }
  }
  const ids =
    relation === 'terms'
      ? termIds(name as 'categories' | 'tags', values[name], scope)
      : readableIds(relation, values[name], scope)
  const sorted = [...new Set(ids)].sort((a, b) => a - b)
  return {
    key: `${relation} ${sorted.join(',')}`,
    set: () => union(sorted.map((id) => scope.indexes.linked(relation, id))),
    // The relation's sets are made from these very lists of each entry.
    holds: (e) => e[relation].some((id) => sorted.includes(id)),
    blanked: true,
  }
}

/** The set as a window reads it: its places there (kept until an event changes) and the test of one event. */
export function windowSet(w: EventWindow, single: SingleSet, scope: QueryScope): WindowSet {
  const { holds, blanked } = single
  // As `passes` reads a blanked filter for a request without a password: a protected event is locked.
  const has = (e: EventEntry) =>
    holds(e) && !(blanked && e.protected && isLocked(e.record.source.data.password, undefined))
  let kept = w.places as PlaceCache | undefined
  if (!kept) w.places = kept = new PlaceCache()
  let places = kept.get(single.key)
  if (!places) {
    places = placesOf(w.regular, single.set(), has, (id) => scope.indexes.entry(id))
    kept.add(single.key, places)
  }
  return { places, has }
}

/**
 * The places in `regular` (list order) of the events a set holds that `has` admits, ascending: each id looked up
 * by binary search when the set is small, else one walk over the list.
 */
function placesOf(
  regular: readonly EventEntry[],
  set: IdSet,
  has: (e: EventEntry) => boolean,
  entryOf: (id: number) => EventEntry | undefined,
): Int32Array {
  const found: number[] = []
  if (set.size * 16 < regular.length) {
    set.forEach((id) => {
      const entry = entryOf(id)
      if (!entry) return
      const at = insertionPoint(regular, entry, compareStart)
      if (regular[at] === entry && has(entry)) found.push(at)
    })
    return Int32Array.from(found).sort()
  }
  for (let at = 0; at < regular.length; at++) if (has(regular[at]!)) found.push(at)
  return Int32Array.from(found)
}

/** Places by set key, the oldest dropped past PLACES_KEPT. */
class PlaceCache extends Map<string, Int32Array> {
  private bytes = 0
  add(key: string, places: Int32Array): void {
    if (places.byteLength > PLACES_KEPT.bytes) return
    this.set(key, places)
    this.bytes += places.byteLength
    for (const [oldest, old] of this) {
      if (this.size <= PLACES_KEPT.sets && this.bytes <= PLACES_KEPT.bytes) break
      this.delete(oldest)
      this.bytes -= old.byteLength
    }
  }
  override clear(): void {
    super.clear()
    this.bytes = 0
  }
}
