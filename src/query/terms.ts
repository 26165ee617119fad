import type { TermKind } from '../content/model/kinds.ts'
import type { ContentRecord } from '../content/store.ts'
import { findBySlug } from '../content/lookup.ts'
import { toList } from '../args/validators.ts'
import type { QueryScope } from './scope.ts'
import { linkedTo } from './linked.ts'
import { paginate, type Page } from './paging.ts'
import { checkSearch } from './search.ts'

/** Lists categories or tags with WordPress's term query: name ascending, empty terms hidden by default. */
export function listTerms(kind: TermKind, values: Record<string, unknown>, scope: QueryScope): Page<ContentRecord> {
  const field = (record: ContentRecord, key: string) => String(scope.store.fieldsIn(record, scope.lang)?.[key] ?? '')
  const checks: ((record: ContentRecord) => boolean)[] = [(record) => scope.store.langOf(record, scope.lang) !== null]
  if (values.hide_empty !== false) checks.push((record) => scope.indexes.termCount(record.id) > 0)
  // WordPress's term query reads include and exclude as ids, so a slug passes validation but matches nothing.
  const include = values.include === undefined ? undefined : toList(values.include).map(Number)
  if (include) checks.push((record) => include.includes(record.id))
  if (values.exclude !== undefined) {
    const exclude = toList(values.exclude).map(Number)
    checks.push((record) => !exclude.includes(record.id))
  }
  if (values.search !== undefined) {
    const search = String(values.search).toLowerCase()
    checkSearch(search)
    checks.push(
      (record) =>
        field(record, 'name').toLowerCase().includes(search) || field(record, 'slug').toLowerCase().includes(search),
    )
  }
  if (values.parent !== undefined) checks.push((record) => record.source.data.parent === values.parent)
  const post = values.event ?? values.post
  if (post !== undefined) {
    const terms = linkedTo(post as number, scope)?.terms ?? []
    checks.push((record) => terms.includes(record.id))
  }
  if (values.slug !== undefined) {
    const bySlug = findBySlug(scope, kind, String(values.slug))
    checks.push((record) => record === bySlug)
  }
  // By name ascending (the default), the indexes' order is the list's; any other order sorts what matched.
  const byName = String(values.orderby ?? 'name') === 'name' && !descending(values)
  const matches = (byName ? scope.indexes.ordered(kind, scope.lang) : scope.store.list(kind)).filter((record) =>
    checks.every((check) => check(record)),
  )
  if (!byName) matches.sort(order(values, include, field, scope))
  return paginate(matches, values.page as number, values.per_page as number)
}

/** `orderby` (name by default; id, count, slug, term_group, description, include) and `order` (asc, else desc). */
function order(
  values: Record<string, unknown>,
  include: number[] | undefined,
  field: (r: ContentRecord, k: string) => string,
  scope: QueryScope,
) {
  const by = String(values.orderby ?? 'name')
  const down = descending(values)
  const key = (record: ContentRecord): string | number => {
    if (by === 'id' || by === 'term_group') return by === 'id' ? record.id : 0
    if (by === 'count') return scope.indexes.termCount(record.id)
    if (by === 'include' && include) return include.indexOf(record.id)
    return field(record, by === 'slug' || by === 'description' ? by : 'name')
  }
  return (a: ContentRecord, b: ContentRecord) => {
    const x = key(a)
    const y = key(b)
    const cmp = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))
    return (down ? -cmp : cmp) || a.id - b.id
  }
}

function descending(values: Record<string, unknown>): boolean {
  return values.order !== undefined && String(values.order).toLowerCase() !== 'asc'
}
