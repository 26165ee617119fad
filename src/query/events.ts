import type { LinkedKind, TermKind } from '../content/kinds.ts'
import type { RequestContext } from '../context/request.ts'
import { findTerm } from '../content/lookup.ts'
import { LANGUAGES } from '../languages.ts'
import { isTrueWord } from '../text.ts'
import { toList } from '../args/validators.ts'
import { parseTime } from '../time/parse.ts'
import { instantToWall, wallToInstant } from '../time/zone.ts'
import { distanceKm, venueCoordinates } from './geo.ts'
import { compareStart, type EventEntry, type Indexes, lowerBound } from './indexes.ts'
import { paginate, type Page } from './paging.ts'
import { mayRead, type Reader } from '../serialize/context.ts'
import { isLocked } from '../serialize/protect.ts'
import { isReadable, isHidden, listVisibility } from './visibility.ts'

/** What a list query reads of a request besides its parameters: the records and indexes, the language, the clock, who reads. */
export type QueryScope = Pick<
  RequestContext,
  'store' | 'indexes' | 'lang' | 'site' | 'now' | 'reader' | 'password' | 'geolocDistance'
>

type DateKey = 'start_date' | 'end_date' | 'starts_before' | 'starts_after' | 'ends_before' | 'ends_after'
const DATE_KEYS: DateKey[] = ['start_date', 'end_date', 'starts_before', 'starts_after', 'ends_before', 'ends_after']
const RELATIVE: DateKey[] = ['starts_before', 'starts_after', 'ends_before', 'ends_after']

/** A date filter resolved to an instant, with the wall clock the links show. */
interface Bound {
  instant: number
  wall: string
}
type Bounds = Partial<Record<DateKey, Bound>>

/** The result of `GET /events`: one page, and the effective query for the links (docs/compatibility.md §30). */
export interface EventList {
  page: Page<EventEntry>
  query: [string, string][]
  /** The links encode every value once venue, organizer or featured are in them (docs/compatibility.md §30). */
  encoded: boolean
  /** Every match, in list order (the static build pages through it). */
  all: readonly EventEntry[]
}

/** Every condition of one query, flattened so that testing an event is a handful of comparisons. */
interface Filter {
  statuses: Set<string>
  reader: Reader
  password: string | undefined
  /** The query filters on fields a password blanks, which a locked event then does not match. */
  blanked: boolean
  langBit: number
  fallback: boolean
  startMin: number
  startMax: number
  endMin: number
  endMax: number
  sets: ReadonlySet<number>[]
  featured?: boolean
  ticketed?: boolean
  parent?: number
  near?: (entry: EventEntry) => boolean
}

/** Runs `GET /events`: the reference's filters combined with AND, with docs/compatibility.md §5 and §18. */
export function listEvents(values: Record<string, unknown>, given: Set<string>, scope: QueryScope): EventList {
  const bounds = values.include === undefined ? resolveDates(values, given, scope) : {}
  const { statuses, label } = listVisibility(values.status, scope.reader)
  const filter: Filter = {
    statuses,
    reader: scope.reader,
    password: scope.password,
    blanked: BLANKED_FILTERS.some((key) => values[key] !== undefined),
    langBit: 1 << LANGUAGES.indexOf(scope.lang),
    fallback: scope.store.fallback,
    ...ranges(bounds),
    sets: [],
  }
  if (values.featured !== undefined) filter.featured = values.featured as boolean
  if (values.ticketed !== undefined) filter.ticketed = values.ticketed as boolean
  if (values.post_parent !== undefined) filter.parent = values.post_parent as number
  if (values.geoloc !== undefined || values.geoloc_lat !== undefined) filter.near = geolocCheck(values, scope)

  // A password opens events for this request alone: what it finds is not kept for others.
  const key = scope.password === undefined ? resultKey(filter, values, scope) : undefined
  const matches = cached(scope.indexes, key, () => {
    // Relation and search sets cost the most to build, so only a query not answered before builds them.
    filter.sets = relationSets(values, scope)
    const found = candidates(filter, scope)
    if (values.include !== undefined) found.sort((a, b) => a.published - b.published || a.id - b.id)
    return found
  })
  const page = paginate(matches, values.page as number, values.per_page as number)
  const query = effectiveQuery(values, bounds, label)
  return {
    page,
    query,
    all: matches,
    encoded: ['venue', 'organizer', 'featured'].some((key) => query.some(([k]) => k === key)),
  }
}

// Filters on what a password blanks (docs/compatibility.md §21): venue, organizers, terms, flags and the venue's place.
const BLANKED_FILTERS = ['venue', 'organizer', 'categories', 'tags', 'featured', 'ticketed', 'geoloc', 'geoloc_lat']

const RESULTS_KEPT = 256
const results = new WeakMap<Indexes, { generation: number; lists: Map<string, EventEntry[]> }>()

/**
 * The matches of a query, kept per index generation: many clients ask the same questions (the
 * default list above all), and the answer only changes when an event does. Paging reuses it too.
 */
function cached(indexes: Indexes, key: string | undefined, find: () => EventEntry[]): EventEntry[] {
  if (key === undefined) return find()
  let memo = results.get(indexes)
  if (!memo || memo.generation !== indexes.generation)
    results.set(indexes, (memo = { generation: indexes.generation, lists: new Map() }))
  let list = memo.lists.get(key)
  if (!list) {
    list = find()
    if (memo.lists.size >= RESULTS_KEPT) memo.lists.delete(memo.lists.keys().next().value!)
    memo.lists.set(key, list)
  }
  return list
}

/** What makes two queries match the same events: the resolved ranges and every filter but paging. */
function resultKey(f: Filter, values: Record<string, unknown>, scope: QueryScope): string {
  const rest = Object.entries(values).filter(
    ([key]) => key !== 'page' && key !== 'per_page' && key !== 'strict_dates' && !DATE_KEYS.includes(key as DateKey),
  )
  return JSON.stringify([scope.lang, scope.reader, [...f.statuses], f.startMin, f.startMax, f.endMin, f.endMax, rest])
}

function matches(f: Filter, e: EventEntry): boolean {
  if (e.hidden || !f.statuses.has(e.status)) return false
  if (e.status !== 'publish' && !mayRead(f.reader, e.status, e.author)) return false
  if (f.blanked && e.protected && isLocked(e.record.source.data.password, f.password)) return false
  if (!f.fallback && (e.langs & f.langBit) === 0) return false
  if (e.start < f.startMin || e.start > f.startMax || e.end < f.endMin || e.end > f.endMax) return false
  if (f.featured !== undefined && e.featured !== f.featured) return false
  if (f.ticketed !== undefined && e.ticketed !== f.ticketed) return false
  if (f.parent !== undefined && e.parent !== f.parent) return false
  for (const set of f.sets) if (!set.has(e.id)) return false
  return f.near === undefined || f.near(e)
}

/** Relation filters as id sets, each ORed inside, ANDed together, as in the reference. */
function relationSets(values: Record<string, unknown>, scope: QueryScope): ReadonlySet<number>[] {
  const sets: ReadonlySet<number>[] = []
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
function readableIds(kind: LinkedKind, value: unknown, scope: QueryScope): number[] {
  return toList(value)
    .map(Number)
    .filter((id) => {
      const record = scope.store.get(kind, id)
      return record !== undefined && isReadable(record, scope.reader)
    })
}

/** start ≥ start_date, end ≤ end_date, strict inequalities for the relative bounds, as closed ranges in ms. */
function ranges(b: Bounds) {
  return {
    startMin: Math.max(b.start_date?.instant ?? -Infinity, (b.starts_after?.instant ?? -Infinity) + 1),
    startMax: (b.starts_before?.instant ?? Infinity) - 1,
    endMin: (b.ends_after?.instant ?? -Infinity) + 1,
    endMax: Math.min(b.end_date?.instant ?? Infinity, (b.ends_before?.instant ?? Infinity) - 1),
  }
}

/** Day-aligned unless `strict_dates`; the default window applies unless a relative bound is sent (docs/compatibility.md §30). */
function resolveDates(values: Record<string, unknown>, given: Set<string>, scope: QueryScope): Bounds {
  const strict = isTrueWord(values.strict_dates)
  const relative = RELATIVE.some((key) => given.has(key))
  const bounds: Bounds = {}
  for (const key of DATE_KEYS) {
    if (values[key] === undefined) continue
    if (relative && (key === 'start_date' || key === 'end_date') && !given.has(key)) continue
    const parsed = parseTime(values[key], scope.site.timezone, scope.now)!
    let wall = instantToWall(parsed.instant, scope.site.timezone)
    if (!strict) wall = `${wall.slice(0, 10)} ${key === 'start_date' ? '00:00:00' : '23:59:59'}`
    bounds[key] = { wall, instant: strict ? parsed.instant : wallToInstant(wall, scope.site.timezone) }
  }
  return bounds
}

/** The matching events in list order, walking the narrowest of: a start range, an end range, the smallest id set. */
function candidates(f: Filter, scope: QueryScope): EventEntry[] {
  const byStart = scope.indexes.byStart()
  const byEnd = scope.indexes.byEnd()
  const startLow = lowerBound(byStart, f.startMin, 'start')
  const startHigh = lowerBound(byStart, f.startMax + 1, 'start')
  const endLow = lowerBound(byEnd, f.endMin, 'end')
  const endHigh = lowerBound(byEnd, f.endMax + 1, 'end')
  const smallest = f.sets.reduce<ReadonlySet<number> | undefined>(
    (min, set) => (!min || set.size < min.size ? set : min),
    undefined,
  )
  const out: EventEntry[] = []
  if (smallest && smallest.size < Math.min(startHigh - startLow, endHigh - endLow)) {
    for (const id of smallest) {
      const entry = scope.indexes.entry(id)
      if (entry && matches(f, entry)) out.push(entry)
    }
    return out.sort(compareStart)
  }
  const [list, low, high] =
    endHigh - endLow < startHigh - startLow ? [byEnd, endLow, endHigh] : [byStart, startLow, startHigh]
  for (let i = low; i < high; i++) if (matches(f, list[i]!)) out.push(list[i]!)
  return list === byEnd ? out.sort(compareStart) : out
}

/** Category or tag filters by id, slug or name; a category also matches its descendants, as in the reference. */
function termIds(kind: TermKind, value: unknown, scope: QueryScope): number[] {
  const ids = toList(value).flatMap((item) => findTerm(scope, kind, item)?.id ?? [])
  if (kind === 'tags') return ids
  const children = new Map<number, number[]>()
  for (const category of scope.store.list('categories')) {
    const parent = category.source.data.parent
    if (typeof parent === 'number' && parent > 0) children.set(parent, [...(children.get(parent) ?? []), category.id])
  }
  const all = new Set<number>()
  const visit = (id: number) => {
    if (all.has(id)) return
    all.add(id)
    for (const child of children.get(id) ?? []) visit(child)
  }
  ids.forEach(visit)
  return [...all]
}

/** `geoloc`: whether the venue has coordinates; with `geoloc_lat`/`geoloc_lng`, whether it lies near them. */
function geolocCheck(values: Record<string, unknown>, scope: QueryScope): (entry: EventEntry) => boolean {
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

function union(sets: ReadonlySet<number>[]): ReadonlySet<number> {
  if (sets.length === 1) return sets[0]!
  const out = new Set<number>()
  for (const set of sets) for (const id of set) out.add(id)
  return out
}

/** The query the links carry, in the reference's key order; categories and tags never appear (docs/compatibility.md §30). */
function effectiveQuery(values: Record<string, unknown>, bounds: Bounds, status: string): [string, string][] {
  const query: [string, string][] = [
    ['page', String(values.page)],
    ['per_page', String(values.per_page)],
  ]
  const add = (key: string, value: unknown) => {
    if (value !== undefined) query.push([key, Array.isArray(value) ? value.join(',') : String(value)])
  }
  add('start_date', bounds.start_date?.wall)
  add('end_date', bounds.end_date?.wall)
  add('search', values.search)
  if (values.geoloc !== undefined || values.geoloc_lat !== undefined) {
    add('geoloc', values.geoloc === false ? '0' : '1')
    add('geoloc_lat', values.geoloc_lat)
    add('geoloc_lng', values.geoloc_lng)
  }
  add('status', status)
  add('post_parent', values.post_parent)
  add('include', values.include === undefined ? undefined : toList(values.include).join(','))
  for (const key of RELATIVE) add(key, bounds[key]?.wall)
  if (values.ticketed !== undefined) add('ticketed', values.ticketed ? '1' : '0')
  add('venue', values.venue === undefined ? undefined : toList(values.venue).join(','))
  add('organizer', values.organizer === undefined ? undefined : toList(values.organizer).join(','))
  // PHP drops a `false` value from the query, so `featured=false` never shows (docs/compatibility.md §30).
  if (values.featured === true) add('featured', '1')
  return query
}
