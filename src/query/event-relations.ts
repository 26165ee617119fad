import { toList } from '../args/validators.ts'
import type { LinkedKind, TermKind } from '../content/model/kinds.ts'
import { findTerm } from '../content/lookup.ts'
import { distanceKm, venueCoordinates } from './geo.ts'
import type { EventEntry, IdSet } from '../context/indexes.ts'
import type { QueryScope } from './scope.ts'
import { isHidden, isReadable } from './visibility.ts'

/** Relation filters as id sets, each ORed inside, ANDed together, as in the reference. */
export function relationSets(values: Record<string, unknown>, scope: QueryScope): IdSet[] {
  const sets: IdSet[] = []
  const relation = (kind: 'venues' | 'organizers' | 'terms', ids: number[]) =>
    sets.push(union(ids.map((id) => scope.indexes.linked(kind, id))))
  if (values.categories !== undefined) relation('terms', termIds('categories', values.categories, scope))
  if (values.tags !== undefined) relation('terms', termIds('tags', values.tags, scope))
  if (values.venue !== undefined) relation('venues', readableIds('venues', values.venue, scope))
  if (values.organizer !== undefined) relation('organizers', readableIds('organizers', values.organizer, scope))
  if (values.search !== undefined) sets.push(scope.indexes.search(scope.lang).match(String(values.search)))
  if (values.include !== undefined) sets.push(new Set(toList(values.include).map(Number)))
  return sets
}

/** The ids of a venue or organizer filter that the caller may read: events embed no other, so match no other. */
export function readableIds(kind: LinkedKind, value: unknown, scope: QueryScope): number[] {
  return toList(value)
    .map(Number)
    .filter((id) => {
      const record = scope.store.get(kind, id)
      return record !== undefined && isReadable(record, scope.reader)
    })
}

/** Category or tag filters by id, slug or name; a category also matches its descendants, as in the reference. */
export function termIds(kind: TermKind, value: unknown, scope: QueryScope): number[] {
  const ids = toList(value).flatMap((item) => findTerm(scope, kind, item)?.id ?? [])
  if (kind === 'tags') return ids
  const children = childrenOf(scope.store)
  const all = new Set<number>()
  // Depth first, each id before its children, with a stack: a stranger's tree may chain thousands of categories,
  // each the parent of the next, past what recursion holds.
  const stack = [...ids].reverse()
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    if (all.has(id)) continue
    all.add(id)
    const below = children.get(id)
    if (below) for (let i = below.length - 1; i >= 0; i--) stack.push(below[i]!)
  }
  return [...all]
}

const CHILDREN = new WeakMap<QueryScope['store'], { version: number; children: Map<number, number[]> }>()

/**
 * Each category's children by parent id, made once per store version: made for each request, and copying a parent's
 * list for every child it gained, 20,000 categories under one parent took 2 s a filter.
 */
function childrenOf(store: QueryScope['store']): Map<number, number[]> {
  const kept = CHILDREN.get(store)
  if (kept?.version === store.version) return kept.children
  const children = new Map<number, number[]>()
  for (const category of store.list('categories')) {
    const parent = category.source.data.parent
    if (typeof parent !== 'number' || parent <= 0) continue
    const siblings = children.get(parent)
    if (siblings) siblings.push(category.id)
    else children.set(parent, [category.id])
  }
  CHILDREN.set(store, { version: store.version, children })
  return children
}

/** `geoloc`: whether the venue has coordinates; with `geoloc_lat`/`geoloc_lng`, whether it lies near them. */
export function geolocCheck(values: Record<string, unknown>, scope: QueryScope): (entry: EventEntry) => boolean {
  const point =
    values.geoloc_lat !== undefined ? { lat: Number(values.geoloc_lat), lng: Number(values.geoloc_lng) } : undefined
  return (entry) => {
    const venue = entry.venues[0] === undefined ? undefined : scope.store.get('venues', entry.venues[0])
    // A venue the caller may not read, or whose password hides its place, has no place to be near.
    const shown = venue && isReadable(venue, scope.reader) && !isHidden(venue, scope.password)
    const at = shown ? venueCoordinates(venue) : undefined
    if (!point) return values.geoloc === (at !== undefined)
    return values.geoloc !== false && at !== undefined && distanceKm(at, point) <= scope.geolocDistance
  }
}

export function union(sets: IdSet[]): IdSet {
  if (sets.length === 1) return sets[0]!
  const out = new Set<number>()
  for (const set of sets)
    set.forEach((id) => {
      out.add(id)
    })
  return out
}
