// The report's in-process section: listEvents alone, cold and warm, against the query and search goals.
import { int, mark, ms, ms3, seconds, table } from '../common/format.ts'
import type { READ_GOALS } from './budgets.ts'
import type { InProcessResults } from '../common/inprocess.ts'

/** The in-process table: a cold search against the search goal, every other cold query against the query goal. */
export function formatInProcess(r: InProcessResults, goals: typeof READ_GOALS): string {
  const builds = Object.entries(r.searchBuildMs)
    .map(([lang, t]) => `${lang} ${ms(t)}`)
    .join(', ')
  const limit = (name: string) => (name.startsWith('search') ? goals.coldSearchP50Ms : goals.coldQueryP50Ms)
  return [
    `In-process listEvents (no HTTP, no serialization, parameters parsed beforehand), best of ${r.rounds} rounds ` +
      `of ${r.iterations} runs per query; store + app built in ${seconds(r.storeAndAppMs)}`,
    `Search index build, paid once by the first search in each language: ${builds}`,
    table([
      ['query', 'matches', 'cold p50', 'cold p99', 'warm p50', 'warm p99', 'goal', ''],
      ...r.queries.map((q) => [
        q.name,
        int(q.matches),
        ms3(q.cold.p50Ms),
        ms3(q.cold.p99Ms),
        ms3(q.warm.p50Ms),
        ms3(q.warm.p99Ms),
        `cold p50 <= ${ms3(limit(q.name))}`,
        mark(q.cold.p50Ms <= limit(q.name)),
      ]),
    ]),
    'cold: every run a query not answered before (its dates or word moved one step; the default list, its clock a',
    'minute later), over indexes kept up to date with each edit; warm: one query repeated (cache hits, paging only).',
  ].join('\n')
}
