import type { ContentRecord } from '../content/store.ts'
import type { QueryScope } from './events.ts'
import { paginate, type Page } from './paging.ts'

/** Lists categories or tags: by name ascending, terms with no published events hidden by default (§3.9). */
export function listTerms(kind: 'categories' | 'tags', values: Record<string, unknown>, scope: QueryScope): Page<ContentRecord> {
  const name = (record: ContentRecord) => String(scope.store.fieldsIn(record, scope.lang)?.name ?? '')
  const hideEmpty = values.hide_empty !== false
  const matches = scope.store
    .list(kind)
    .filter((record) => scope.store.langOf(record, scope.lang) !== null)
    .filter((record) => !hideEmpty || scope.indexes.termCount(record.id) > 0)
    .sort((a, b) => name(a).localeCompare(name(b)) || a.id - b.id)
  return paginate(matches, values.page as number, values.per_page as number)
}
