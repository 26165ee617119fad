import type { Store } from '../content/store.ts'
import { LANGUAGES, type Lang } from '../languages.ts'
import { findTerm, toList } from '../schema/validators.ts'
import { parseTime } from '../time/parse.ts'
import { instantToWall, wallToInstant } from '../time/zone.ts'
import { distanceKm, venueCoordinates } from './geo.ts'
import { compareStart, type EventEntry, type Indexes, lowerBound } from './indexes.ts'
import { paginate, type Page } from './paging.ts'
import { listStatuses } from './visibility.ts'

/** Everything a list query needs to know besides its parameters. */
export interface QueryScope {
  store: Store
  indexes: Indexes
  lang: Lang
  siteZone: string
  now: number
  canSeeDrafts: boolean
  /** Radius of a `geoloc_lat`/`geoloc_lng` search, in km. */
  geolocDistance: number
}

type DateKey = 'start_date' | 'end_date' | 'starts_before' | 'starts_after' | 'ends_before' | 'ends_after'
const DATE_KEYS: DateKey[] = ['start_date', 'end_date', 'starts_before', 'starts_after', 'ends_before', 'ends_after']
const RELATIVE: DateKey[] = ['starts_before', 'starts_after', 'ends_before', 'ends_after']

/** A date filter resolved to an instant, with the wall clock the links show. */
interface Bound {
  instant: number
  wall: string
}
type Bounds = Partial<Record<DateKey, Bound>>

/** The result of `GET /events`: one page, and the effective query for the links (§5.4). */
export interface EventList {
  page: Page<EventEntry>
  query: [string, string][]
  /** The links encode every value once venue, organizer or featured are in them (§5.4). */
  encoded: boolean
}

/** Runs `GET /events`: the reference's filters (§6, §7) combined with AND, with D4 and D18. */
export function listEvents(values: Record<string, unknown>, given: Set<string>, scope: QueryScope): EventList {
  const bounds = values.include === undefined ? resolveDates(values, given, scope) : {}
  const { statuses, label } = listStatuses(values.status, scope.canSeeDrafts)
  const langBit = 1 << LANGUAGES.indexOf(scope.lang)
  const fallback = scope.store.fallback
  const checks: ((entry: EventEntry) => boolean)[] = [
    (e) => statuses.has(e.status) && !e.hidden && (fallback || (e.langs & langBit) !== 0),
  ]
  const sets: ReadonlySet<number>[] = []
  const relation = (relation: 'venues' | 'organizers' | 'terms', ids: number[]) => sets.push(union(ids.map((id) => scope.indexes.linked(relation, id))))
  if (values.categories !== undefined) relation('terms', termIds('categories', values.categories, scope))
  if (values.tags !== undefined) relation('terms', termIds('tags', values.tags, scope))
  if (values.venue !== undefined) relation('venues', toList(values.venue).map(Number))
  if (values.organizer !== undefined) relation('organizers', toList(values.organizer).map(Number))
  if (values.search !== undefined) sets.push(scope.indexes.search(scope.lang).match(String(values.search)))
  if (values.include !== undefined) sets.push(new Set(toList(values.include).map(Number)))
  if (values.featured !== undefined) checks.push((e) => e.featured === values.featured)
  if (values.ticketed !== undefined) checks.push((e) => e.ticketed === values.ticketed)
  if (values.post_parent !== undefined) checks.push((e) => e.parent === values.post_parent)
  if (values.geoloc !== undefined || values.geoloc_lat !== undefined) checks.push(geolocCheck(values, scope))
  for (const set of sets) checks.push((e) => set.has(e.id))
  checks.push(...boundChecks(bounds))

  const matches = candidates(bounds, sets, scope).filter((entry) => checks.every((check) => check(entry)))
  if (values.include !== undefined) matches.sort((a, b) => a.published - b.published || a.id - b.id)
  const page = paginate(matches, values.page as number, values.per_page as number)
  const query = effectiveQuery(values, bounds, label)
  return { page, query, encoded: ['venue', 'organizer', 'featured'].some((key) => query.some(([k]) => k === key)) }
}

/** Day-aligned unless `strict_dates` (§6.3); the default window applies unless a relative bound is sent (§6.4). */
function resolveDates(values: Record<string, unknown>, given: Set<string>, scope: QueryScope): Bounds {
  const strict = /^(1|true|on|yes)$/i.test(String(values.strict_dates))
  const relative = RELATIVE.some((key) => given.has(key))
  const bounds: Bounds = {}
  for (const key of DATE_KEYS) {
    if (values[key] === undefined) continue
    if (relative && (key === 'start_date' || key === 'end_date') && !given.has(key)) continue
    const parsed = parseTime(values[key], scope.siteZone, scope.now)!
    let wall = instantToWall(parsed.instant, scope.siteZone)
    if (!strict) wall = `${wall.slice(0, 10)} ${key === 'start_date' ? '00:00:00' : '23:59:59'}`
    bounds[key] = { wall, instant: strict ? parsed.instant : wallToInstant(wall, scope.siteZone) }
  }
  return bounds
}

/** start ≥ start_date, end ≤ end_date, and strict inequalities for the relative bounds (§6.1). */
function boundChecks(b: Bounds): ((entry: EventEntry) => boolean)[] {
  const checks: ((entry: EventEntry) => boolean)[] = []
  if (b.start_date) checks.push((e) => e.start >= b.start_date!.instant)
  if (b.end_date) checks.push((e) => e.end <= b.end_date!.instant)
  if (b.starts_after) checks.push((e) => e.start > b.starts_after!.instant)
  if (b.starts_before) checks.push((e) => e.start < b.starts_before!.instant)
  if (b.ends_after) checks.push((e) => e.end > b.ends_after!.instant)
  if (b.ends_before) checks.push((e) => e.end < b.ends_before!.instant)
  return checks
}

/** The fewest events that can match, in list order: a start range, an end range, or the smallest id set. */
function candidates(b: Bounds, sets: ReadonlySet<number>[], scope: QueryScope): EventEntry[] {
  const byStart = scope.indexes.byStart()
  const byEnd = scope.indexes.byEnd()
  const startLow = Math.max(
    b.start_date ? lowerBound(byStart, b.start_date.instant, 'start') : 0,
    b.starts_after ? lowerBound(byStart, b.starts_after.instant + 1, 'start') : 0,
  )
  const startHigh = b.starts_before ? lowerBound(byStart, b.starts_before.instant, 'start') : byStart.length
  const endLow = b.ends_after ? lowerBound(byEnd, b.ends_after.instant + 1, 'end') : 0
  const endHigh = Math.min(
    b.end_date ? lowerBound(byEnd, b.end_date.instant + 1, 'end') : byEnd.length,
    b.ends_before ? lowerBound(byEnd, b.ends_before.instant, 'end') : byEnd.length,
  )
  const smallest = sets.reduce<ReadonlySet<number> | undefined>((min, set) => (!min || set.size < min.size ? set : min), undefined)
  const startSize = Math.max(0, startHigh - startLow)
  const endSize = Math.max(0, endHigh - endLow)
  if (smallest && smallest.size < Math.min(startSize, endSize)) {
    return [...smallest].flatMap((id) => scope.indexes.entry(id) ?? []).sort(compareStart)
  }
  if (endSize < startSize) return byEnd.slice(endLow, endHigh).sort(compareStart)
  return byStart.slice(startLow, startHigh)
}

/** Category or tag filters by id, slug or name; a category also matches its descendants (§7.1). */
function termIds(kind: 'categories' | 'tags', value: unknown, scope: QueryScope): number[] {
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
  const point = values.geoloc_lat !== undefined ? { lat: Number(values.geoloc_lat), lng: Number(values.geoloc_lng) } : undefined
  return (entry) => {
    const venue = entry.venues[0] === undefined ? undefined : scope.store.get('venues', entry.venues[0])
    const at = venue ? venueCoordinates(venue) : undefined
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

/** The query the links carry, in the reference's key order (§5.4); categories and tags never appear. */
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
  // PHP drops a `false` value from the query, so `featured=false` never shows (§5.4).
  if (values.featured === true) add('featured', '1')
  return query
}
