import type { ContentRecord, Store } from '../content/store.ts'
import { eventTimes, postDates } from '../content/derive.ts'
import type { Lang } from '../languages.ts'
import { parseTime } from '../time/parse.ts'
import { instantToWall, wallToInstant } from '../time/zone.ts'
import { type Indexes, lowerBound } from './indexes.ts'
import { paginate, type Page } from './paging.ts'
import { listStatuses, statusOf } from './visibility.ts'

/** Everything a list query needs to know besides its parameters. */
export interface QueryScope {
  store: Store
  indexes: Indexes
  lang: Lang
  siteZone: string
  now: number
  canSeeDrafts: boolean
}

type DateKey = 'start_date' | 'end_date' | 'starts_before' | 'starts_after' | 'ends_before' | 'ends_after'
const DATE_KEYS: DateKey[] = ['start_date', 'end_date', 'starts_before', 'starts_after', 'ends_before', 'ends_after']
const RELATIVE: DateKey[] = ['starts_before', 'starts_after', 'ends_before', 'ends_after']

/** A date filter resolved to an instant, with the wall clock the links show. */
interface Bound {
  instant: number
  wall: string
}

/** The result of `GET /events`: one page, and the effective query for the links (§5.4). */
export interface EventList {
  page: Page<ContentRecord>
  query: [string, string][]
}

/** Runs `GET /events` over the indexes with the reference's date semantics (§6) and D4, D18. */
export function listEvents(values: Record<string, unknown>, given: Set<string>, scope: QueryScope): EventList {
  const bounds = resolveDates(values, given, scope)
  const { statuses, label } = listStatuses(values.status, scope.canSeeDrafts)
  const visible = (record: ContentRecord) =>
    statuses.has(statusOf(record)) &&
    record.source.data.hide_from_listings !== true &&
    scope.store.langOf(record, scope.lang) !== null
  const matches = values.include !== undefined
    ? byInclude(values.include as string, scope).filter(visible)
    : inWindow(bounds, scope).filter(visible)
  const page = paginate(matches, values.page as number, values.per_page as number)
  return { page, query: effectiveQuery(values, bounds, label) }
}

/** Day-aligned unless `strict_dates` (§6.3); the default window applies unless a relative bound is sent (§6.4). */
function resolveDates(values: Record<string, unknown>, given: Set<string>, scope: QueryScope): Partial<Record<DateKey, Bound>> {
  if (values.include !== undefined) return {}
  const strict = /^(1|true|on|yes)$/i.test(String(values.strict_dates))
  const relative = RELATIVE.some((key) => given.has(key))
  const bounds: Partial<Record<DateKey, Bound>> = {}
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

/** Events within the bounds, in list order; the start bounds narrow the scan by binary search. */
function inWindow(bounds: Partial<Record<DateKey, Bound>>, scope: QueryScope): ContentRecord[] {
  const events = scope.indexes.eventsByStart()
  const starts = scope.indexes.startInstants()
  const low = Math.max(
    bounds.start_date ? lowerBound(starts, bounds.start_date.instant) : 0,
    bounds.starts_after ? lowerBound(starts, bounds.starts_after.instant + 1) : 0,
  )
  const high = bounds.starts_before ? lowerBound(starts, bounds.starts_before.instant) : events.length
  const out: ContentRecord[] = []
  for (let i = low; i < high; i++) {
    const end = eventTimes(events[i]!, scope.siteZone).end
    if (bounds.end_date && end > bounds.end_date.instant) continue
    if (bounds.ends_after && end <= bounds.ends_after.instant) continue
    if (bounds.ends_before && end >= bounds.ends_before.instant) continue
    out.push(events[i]!)
  }
  return out
}

/** `include` (D4): exactly the listed events, every date filter ignored, by publication date then id. */
function byInclude(include: string, scope: QueryScope): ContentRecord[] {
  const ids = new Set(String(include).split(',').map((id) => Number(id.trim())))
  return [...ids]
    .map((id) => scope.store.get('events', id))
    .filter((record): record is ContentRecord => record !== undefined)
    .sort((a, b) => postDates(a, scope.siteZone).published - postDates(b, scope.siteZone).published || a.id - b.id)
}

/** The query the links carry, in the reference's key order (§5.4); categories and tags never appear. */
function effectiveQuery(values: Record<string, unknown>, bounds: Partial<Record<DateKey, Bound>>, status: string): [string, string][] {
  const query: [string, string][] = [
    ['page', String(values.page)],
    ['per_page', String(values.per_page)],
  ]
  if (bounds.start_date) query.push(['start_date', bounds.start_date.wall])
  if (bounds.end_date) query.push(['end_date', bounds.end_date.wall])
  if (values.search !== undefined) query.push(['search', String(values.search)])
  query.push(['status', status])
  if (values.post_parent !== undefined) query.push(['post_parent', String(values.post_parent)])
  if (values.include !== undefined) query.push(['include', String(values.include)])
  for (const key of RELATIVE) if (bounds[key]) query.push([key, bounds[key]!.wall])
  return query
}
