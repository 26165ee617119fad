import type { ContentRecord } from '../content/store.ts'
import { postDates } from '../content/derive.ts'
import type { QueryScope } from './events.ts'
import { paginate, type Page } from './paging.ts'
import { listStatuses, statusOf } from './visibility.ts'

/** The result of `GET /venues` or `/organizers`: one page and the effective query for links. */
export interface LinkedList {
  page: Page<ContentRecord>
  query: [string, string][]
}

/** Lists venues or organizers, newest publication first as WordPress orders them (§5.5). */
export function listLinked(kind: 'venues' | 'organizers', values: Record<string, unknown>, scope: QueryScope): LinkedList {
  const { statuses, label } = listStatuses(values.status, scope.canSeeDrafts)
  const matches = scope.store
    .list(kind)
    .filter((record) => statuses.has(statusOf(record)) && scope.store.langOf(record, scope.lang) !== null)
    .sort((a, b) => postDates(b, scope.siteZone).published - postDates(a, scope.siteZone).published || b.id - a.id)
  const page = paginate(matches, values.page as number, values.per_page as number)
  const query: [string, string][] = [
    ['page', String(values.page)],
    ['per_page', String(values.per_page)],
    ['status', label],
  ]
  return { page, query }
}
