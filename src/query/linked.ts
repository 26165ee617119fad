import type { ContentRecord } from '../content/store.ts'
import { postDates } from '../content/derive.ts'
import type { QueryScope } from './events.ts'
import { paginate, type Page } from './paging.ts'
import { listStatuses, statusOf } from './visibility.ts'
import { checkSearch } from './search.ts'

/** The result of `GET /venues` or `/organizers`: one page and the effective query for links. */
export interface LinkedList {
  page: Page<ContentRecord>
  query: [string, string][]
}

// The fields a venue or organizer search looks in (§7.8: LPBase `find_like`).
const SEARCHED = {
  venues: ['venue', 'description', 'excerpt', 'address', 'city', 'province', 'state', 'stateprovince', 'zip', 'phone'],
  organizers: ['organizer', 'description', 'excerpt', 'phone', 'email', 'website'],
}
const RELATION = { venues: 'venues', organizers: 'organizers' } as const

/** Lists venues or organizers, newest publication first as WordPress orders them (§3.6, §5.5, §7.8). */
export function listLinked(kind: 'venues' | 'organizers', values: Record<string, unknown>, scope: QueryScope): LinkedList {
  const { statuses, label } = listStatuses(values.status, scope.canSeeDrafts)
  const checks: ((record: ContentRecord) => boolean)[] = [
    (record) => statuses.has(statusOf(record)) && scope.store.langOf(record, scope.lang) !== null,
  ]
  if (values.search !== undefined) checks.push(searchCheck(kind, String(values.search), scope))
  if (values.event !== undefined) {
    const linked = scope.indexes.entry(values.event as number)?.[kind] ?? []
    checks.push((record) => linked.includes(record.id))
  }
  if (values.has_events !== undefined) {
    const wanted = isTruthy(values.has_events)
    checks.push((record) => hasEvents(kind, record, scope, (status) => status !== 'draft' && status !== 'pending') === wanted)
  }
  if (values.only_with_upcoming !== undefined && isTruthy(values.only_with_upcoming)) {
    const { statuses: visible } = listStatuses(undefined, scope.canSeeDrafts)
    checks.push((record) => hasEvents(kind, record, scope, (status, start) => visible.has(status) && start >= scope.now))
  }
  const matches = scope.store
    .list(kind)
    .filter((record) => checks.every((check) => check(record)))
    .sort((a, b) => postDates(b, scope.siteZone).published - postDates(a, scope.siteZone).published || b.id - a.id)
  const page = paginate(matches, values.page as number, values.per_page as number)
  const query: [string, string][] = [['page', String(values.page)], ['per_page', String(values.per_page)], ['status', label]]
  for (const key of ['search', 'event', 'has_events'] as const) if (values[key] !== undefined) query.push([key, String(values[key])])
  return { page, query }
}

/** tribe truthiness: `1`, `true`, `yes`, `on`, `y`, `enable(d)` are true; every other string false. */
export function isTruthy(value: unknown): boolean {
  if (typeof value === 'boolean') return value
  return /^(1|true|yes|on|y|enabled?)$/i.test(String(value).trim())
}

/** All words, split on anything but letters, digits and hyphens, occurring in one single field. */
function searchCheck(kind: 'venues' | 'organizers', search: string, scope: QueryScope) {
  checkSearch(search)
  const words = search.toLowerCase().split(/[^\p{L}\p{N}\p{M}-]+/u).filter(Boolean)
  return (record: ContentRecord) => {
    const fields = scope.store.fieldsIn(record, scope.lang)!
    return SEARCHED[kind].some((field) => {
      const text = String(fields[field] ?? '').toLowerCase()
      return words.every((word) => text.includes(word))
    })
  }
}

function hasEvents(kind: 'venues' | 'organizers', record: ContentRecord, scope: QueryScope, keep: (status: string, start: number) => boolean) {
  for (const id of scope.indexes.linked(RELATION[kind], record.id)) {
    const entry = scope.indexes.entry(id)
    if (entry && keep(entry.status, entry.start)) return true
  }
  return false
}
