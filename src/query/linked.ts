import { isDraftStatus } from '../content/model/post-state.ts'
import { isTribeTrue } from '../text.ts'
import type { LinkedKind } from '../content/model/kinds.ts'
import type { ContentRecord } from '../content/store.ts'
import type { QueryScope } from './scope.ts'
import type { EventEntry } from '../context/indexes.ts'
import { paginate, type Page } from './paging.ts'
import { isHidden, isListed, linksVisible, listVisibility, ownerOf, statusOf } from './visibility.ts'
import { checkSearch } from './search.ts'

/** The result of `GET /venues` or `/organizers`: one page and the effective query for links. */
export interface LinkedList {
  page: Page<ContentRecord>
  query: [string, string][]
}

// The fields a venue or organizer search looks in (as the reference's `find_like` does).
const SEARCHED = {
  venues: ['venue', 'description', 'excerpt', 'address', 'city', 'province', 'state', 'stateprovince', 'zip', 'phone'],
  organizers: ['organizer', 'description', 'excerpt', 'phone', 'email', 'website'],
}
const RELATION = { venues: 'venues', organizers: 'organizers' } as const

/** Lists venues or organizers, newest publication first as WordPress orders them. */
export function listLinked(kind: LinkedKind, values: Record<string, unknown>, scope: QueryScope): LinkedList {
  const visibility = listVisibility(values.status, scope.reader)
  const checks: ((record: ContentRecord) => boolean)[] = [
    (record) =>
      isListed(visibility, statusOf(record), ownerOf(record)) && scope.store.langOf(record, scope.lang) !== null,
  ]
  if (values.search !== undefined) checks.push(searchCheck(kind, String(values.search), scope))
  if (values.event !== undefined) {
    const linked = linkedTo(values.event as number, scope)?.[kind] ?? []
    checks.push((record) => linked.includes(record.id))
  }
  // Only events the caller would see in a list count, and not draft or pending ones (docs/compatibility.md §20).
  const seen = listVisibility(undefined, scope.reader)
  if (values.has_events !== undefined) {
    const wanted = isTribeTrue(values.has_events)
    const counts = (entry: EventEntry) => isListed(seen, entry.status, entry.author) && !isDraftStatus(entry.status)
    checks.push((record) => hasEvents(kind, record, scope, counts) === wanted)
  }
  if (values.only_with_upcoming !== undefined && isTribeTrue(values.only_with_upcoming)) {
    checks.push((record) =>
      hasEvents(kind, record, scope, (entry) => isListed(seen, entry.status, entry.author) && entry.start >= scope.now),
    )
  }
  // Already in list order (the indexes sort a kind once per change), so a list is a filter.
  const matches = scope.indexes.ordered(kind, scope.lang).filter((record) => checks.every((check) => check(record)))
  const page = paginate(matches, values.page as number, values.per_page as number)
  const query: [string, string][] = [
    ['page', String(values.page)],
    ['per_page', String(values.per_page)],
    ['status', visibility.label],
  ]
  for (const key of ['search', 'event', 'has_events'] as const)
    if (values[key] !== undefined) query.push([key, String(values[key])])
  return { page, query }
}

/**
 * The event of a `?event=` lookup, when its links are the caller's to see: an event they may not
 * read, or whose password they did not give, is linked to nothing.
 */
export function linkedTo(id: number, scope: QueryScope): EventEntry | undefined {
  const entry = scope.indexes.entry(id)
  return entry && linksVisible(entry.record, scope.reader, scope.password) ? entry : undefined
}

/**
 * All words, split on anything but letters, digits and hyphens, occurring in one single field.
 * A record whose password the caller did not give shows none of those fields, so matches nothing.
 */
function searchCheck(kind: LinkedKind, search: string, scope: QueryScope) {
  checkSearch(search)
  const words = search
    .toLowerCase()
    .split(/[^\p{L}\p{N}\p{M}-]+/u)
    .filter(Boolean)
  return (record: ContentRecord) => {
    if (isHidden(record, scope.password)) return false
    const fields = scope.store.fieldsIn(record, scope.lang)!
    return SEARCHED[kind].some((field) => {
      const text = String(fields[field] ?? '').toLowerCase()
      return words.every((word) => text.includes(word))
    })
  }
}

/** Whether a venue or organizer is linked to an event that counts, and whose links the caller may see. */
function hasEvents(kind: LinkedKind, record: ContentRecord, scope: QueryScope, keep: (entry: EventEntry) => boolean) {
  for (const id of scope.indexes.linked(RELATION[kind], record.id)) {
    const entry = scope.indexes.entry(id)
    if (entry && keep(entry) && !isHidden(entry.record, scope.password)) return true
  }
  return false
}
