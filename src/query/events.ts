import { LANGUAGES } from '../languages.ts'
import { toList } from '../args/validators.ts'
import { type Bounds, DATE_KEYS, type DateKey, RELATIVE, ranges, resolveDates } from './event-dates.ts'
import { geolocCheck, relationSets } from './event-relations.ts'
import type { EventEntry, IdSet } from '../context/indexes.ts'
import { lowerBound } from './indexes.ts'
import { pageOf, paginate, type Page } from './paging.ts'
import { type EventWindow, followingWindow, windowPage } from './event-window.ts'
import { entriesInStartOrder, idsInStartOrder, placeBits, type StartColumns, startColumns } from './start-places.ts'
import { mayRead, type Reader } from '../context/request.ts'
import { isLocked } from '../serialize/protect.ts'
import type { QueryScope } from './scope.ts'
import { listVisibility } from './visibility.ts'
import { singleSet, windowSet } from './window-sets.ts'

/** The result of `GET /events`: one page, and the effective query for the links (docs/compatibility.md §30). */
export interface EventList {
  page: Page<EventEntry>
  query: [string, string][]
  /** The links encode every value once venue, organizer or featured are in them (docs/compatibility.md §30). */
  encoded: boolean
  /**
   * Every match, in list order (the static build and the feeds walk it), collected when called. A method, not a
   * getter: V8 11 keeps an accessor made per object in its old generation, so a getter made for every list kept the
   * whole request's objects (the window's page, the filter, the query) alive until the next full collection
   * (docs/architecture.md §3, "Accessors made per request").
   */
  all(): readonly EventEntry[]
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
  sets: IdSet[]
  featured?: boolean
  ticketed?: boolean
  parent?: number
  /** The event statuses asked for (docs/compatibility.md §32). */
  eventStatuses?: Set<string>
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
  if (values.event_status !== undefined) filter.eventStatuses = new Set(toList(values.event_status))
  if (values.geoloc !== undefined || values.geoloc_lat !== undefined) filter.near = geolocCheck(values, scope)

  const query = effectiveQuery(values, bounds, label)
  const encoded = ['venue', 'organizer', 'featured'].some((key) => query.some(([k]) => k === key))
  const window = windowOf(values, filter, scope)
  // One id set besides the dates: its places in the caller's window (not for a password, which opens events).
  const single = window || scope.password !== undefined ? undefined : singleSet(values, scope, WINDOW_ONLY)
  const setWindow = single && callerWindow(filter, scope)
  if (window || setWindow) {
    const [number, size] = [values.page as number, values.per_page as number]
    const only = setWindow ? windowSet(setWindow, single!, scope) : undefined
    const found = windowPage((window ?? setWindow)!, filter, (number - 1) * size, size, only)
    const page = pageOf(found.items, found.total, number, size)
    return {
      page,
      query,
      encoded,
      all: () => found.all(),
    }
  }
  // A password opens events for this request alone: what it finds is not kept for others.
  const key = scope.password === undefined ? resultKey(filter, values, scope) : undefined
  const find = () => {
    // Relation and search sets cost the most to build, so only a query not answered before builds them.
    filter.sets = relationSets(values, scope)
    const found = candidates(filter, scope, callerWindow(filter, scope))
    if (values.include !== undefined) found.sort((a, b) => a.published - b.published || a.id - b.id)
    return found
  }
  const matches = key === undefined ? find() : scope.indexes.matches(key, find)
  const page = paginate(matches, values.page as number, values.per_page as number)
  return { page, query, encoded, all: () => matches }
}

// What a date window answers alone: any other argument is a filter the window does not know.
const WINDOW_ONLY = new Set<string>(['page', 'per_page', 'strict_dates', 'status', ...DATE_KEYS])

/** The events this kind of caller may list, split for date windows, when the query filters on dates alone. */
function windowOf(values: Record<string, unknown>, f: Filter, scope: QueryScope): EventWindow | undefined {
  for (const key in values) if (values[key] !== undefined && !WINDOW_ONLY.has(key)) return undefined
  return callerWindow(f, scope)
}

/** The events this kind of caller may list, split for date windows (kept, and following each change). */
function callerWindow(f: Filter, scope: QueryScope): EventWindow | undefined {
  const key = JSON.stringify(['window', [...f.statuses], f.reader, f.fallback ? 0 : f.langBit])
  return scope.indexes.derived(key, () => {
    const caller = { statuses: f.statuses, reader: f.reader, fallback: f.fallback, langBit: f.langBit }
    const admits = (e: EventEntry) => listed(caller, e)
    return followingWindow(scope.indexes.byStart().filter(admits), admits)
  })
}

// Filters on what a password blanks (docs/compatibility.md §21): venue, organizers, terms, flags and the venue's place.
const BLANKED_FILTERS = ['venue', 'organizer', 'categories', 'tags', 'featured', 'ticketed', 'geoloc', 'geoloc_lat']

/** What makes two queries match the same events: the resolved ranges and every filter but paging. */
function resultKey(f: Filter, values: Record<string, unknown>, scope: QueryScope): string {
  const rest = Object.entries(values).filter(
    ([key]) => key !== 'page' && key !== 'per_page' && key !== 'strict_dates' && !DATE_KEYS.includes(key as DateKey),
  )
  return JSON.stringify([scope.lang, scope.reader, [...f.statuses], f.startMin, f.startMax, f.endMin, f.endMax, rest])
}

/** Whether this kind of caller (statuses, reader, language) may list an event at all. */
function listed(f: Pick<Filter, 'statuses' | 'reader' | 'fallback' | 'langBit'>, e: EventEntry): boolean {
  if (e.hidden || !f.statuses.has(e.status)) return false
  if (e.status !== 'publish' && !mayRead(f.reader, e.status, e.author)) return false
  return f.fallback || (e.langs & f.langBit) !== 0
}

function matches(f: Filter, e: EventEntry): boolean {
  return listed(f, e) && passes(f, e)
}

/** Whether an event the caller may list passes the query's filters. */
function passes(f: Filter, e: EventEntry): boolean {
  if (f.blanked && e.protected && isLocked(e.record.source.data.password, f.password)) return false
  if (e.start < f.startMin || e.start > f.startMax || e.end < f.endMin || e.end > f.endMax) return false
  if (f.featured !== undefined && e.featured !== f.featured) return false
  if (f.ticketed !== undefined && e.ticketed !== f.ticketed) return false
  if (f.parent !== undefined && e.parent !== f.parent) return false
  if (f.eventStatuses !== undefined && !f.eventStatuses.has(e.eventStatus)) return false
  for (const set of f.sets) if (!set.has(e.id)) return false
  return f.near === undefined || f.near(e)
}

/**
 * The matching events in list order, walking the narrowest of: the events the caller's window finds in the
 * dates, a start range, an end range, the smallest id set. (A start range holds every event that starts
 * before the end date: with both dates given, the window's matches are usually far fewer.)
 */
function candidates(f: Filter, scope: QueryScope, window: EventWindow | undefined): EventEntry[] {
  const byStart = scope.indexes.byStart()
  const byEnd = scope.indexes.byEnd()
  const startLow = lowerBound(byStart, f.startMin, 'start')
  const startHigh = lowerBound(byStart, f.startMax + 1, 'start')
  const endLow = lowerBound(byEnd, f.endMin, 'end')
  const endHigh = lowerBound(byEnd, f.endMax + 1, 'end')
  const smallest = f.sets.reduce<IdSet | undefined>((min, set) => (!min || set.size < min.size ? set : min), undefined)
  const dated = window && windowPage(window, f, 0, 0)
  const walk = Math.min(startHigh - startLow, endHigh - endLow, dated?.total ?? Number.POSITIVE_INFINITY)
  if (smallest && smallest.size < walk) return setMatches(f, smallest, scope)
  // The window holds only events the caller may list.
  if (dated && dated.total === walk) return dated.all((e) => passes(f, e))
  const [list, low, high] =
    endHigh - endLow < startHigh - startLow ? [byEnd, endLow, endHigh] : [byStart, startLow, startHigh]
  const out: EventEntry[] = []
  for (let i = low; i < high; i++) if (matches(f, list[i]!)) out.push(list[i]!)
  return list === byStart ? out : entriesInStartOrder(out, startColumnsOf(scope))
}

/**
 * The events of an id set that match, in list order: the set's ids tested on the start index's columns (place,
 * dates, whether the caller may list it), ordered by place; an event itself is read only for a filter besides the
 * dates and this set.
 */
function setMatches(f: Filter, set: IdSet, scope: QueryScope): EventEntry[] {
  const key = JSON.stringify(['listed', [...f.statuses], f.reader, f.fallback ? 0 : f.langBit])
  const columns = startColumnsOf(scope)
  const listedBits = scope.indexes.derived(key, () => placeBits(columns.byStart, (e) => listed(f, e)))
  const only =
    f.sets.length === 1 &&
    !f.blanked &&
    f.featured === undefined &&
    f.ticketed === undefined &&
    f.parent === undefined &&
    f.eventStatuses === undefined
  const keep = only && f.near === undefined ? undefined : (e: EventEntry) => passes(f, e)
  // A literal of what the columns test, not `{ ...f, listed }`: V8 gives such a spread-and-extended object a shape of
  // its own, and the test reads its ranges once an id.
  const { startMin, startMax, endMin, endMax } = f
  return idsInStartOrder(set, columns, { startMin, startMax, endMin, endMax, listed: listedBits }, keep)
}

/**
 * The query the links carry, in the reference's key order; categories and tags never appear
 * (docs/compatibility.md §30).
 */
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
  add('event_status', values.event_status === undefined ? undefined : toList(values.event_status).join(','))
  return query
}

/** The start index as columns by place, kept until an event changes. */
function startColumnsOf(scope: QueryScope): StartColumns {
  return scope.indexes.derived('columns', () => startColumns(scope.indexes.byStart()))
}
