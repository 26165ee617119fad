// The report's sections for the list-filter measurements: the varied HTTP mix and in-process query time.
import { failures, int, mark, ms, ms3, pct, seconds, table } from '../common/format.ts'
import type { LoadResult, LoadSettings } from '../common/load.ts'
import type { READ_BUDGETS } from './budgets.ts'
import type { InProcessResults } from './inprocess.ts'
import type { MixRun } from './mix.ts'

/** The varied mix as written to the JSON: what was asked, Almanac's load, and both bare comparisons. */
export interface MixResult
  extends Pick<MixRun, 'generated' | 'dropped' | 'droppedSample' | 'kinds' | 'verifyMs' | 'meanBytes'> {
  paths: number
  samplePaths: string[]
  almanac: LoadResult
  /** The bare handler on the default list (measured above): the comparison the issue names. */
  bareList: { bytes: number; load: LoadResult }
  /** The bare handler on the same cycle of paths, answering the mix's representative (mean-size) body. */
  bareSamePaths: { path: string; bytes: number; load: LoadResult }
  ratioVsBareList: number
  ratioVsBareSamePaths: number
}

/** The varied-mix section: Almanac under thousands of distinct queries next to both bare ceilings. */
export function formatMix(x: MixResult, s: LoadSettings, budgets: typeof READ_BUDGETS): string {
  const kinds = Object.entries(x.kinds)
    .map(([kind, n]) => `${kind} ${int(n)}`)
    .join(', ')
  const dropped =
    x.dropped === 0 ? 'none dropped' : `${x.dropped} dropped for not answering 200 (e.g. ${x.droppedSample[0]})`
  const row = (label: string, bytes: number, r: LoadResult, ratio?: number) => [
    label,
    int(bytes),
    int(r.requestsPerSec),
    ms(r.latencyP50Ms),
    ms(r.latencyP99Ms),
    ratio === undefined ? '' : pct(ratio),
    ratio === undefined ? '' : mark(ratio >= budgets.mixRatio),
  ]
  return [
    `Varied mix: ${int(x.paths)} distinct paths in turn (${kinds}); every path checked once in ${seconds(x.verifyMs)}, ${dropped}`,
    `autocannon, ${s.connections} connections, ${s.seconds} s after ${s.warmupSeconds} s warm-up; bytes are the mean answer size`,
    table([
      ['target', 'bytes', 'req/s', 'p50', 'p99', 'mix ratio', `>= ${pct(budgets.mixRatio)}`],
      row('almanac, varied mix', x.meanBytes, x.almanac),
      row('bare h3, default list (above)', x.bareList.bytes, x.bareList.load, x.ratioVsBareList),
      row('bare h3, same paths, mean-size body', x.bareSamePaths.bytes, x.bareSamePaths.load, x.ratioVsBareSamePaths),
    ]),
    `  almanac ${failures(x.almanac)}; bare same paths ${failures(x.bareSamePaths.load)}`,
    // Why two ratios: the default list is the ceiling the issue names, but it is one fixed URL of its own size,
    // sent without autocannon's per-request setupRequest. The same-paths run has the mix's client work (the same
    // cycle through setupRequest) and a body of the mix's mean size, so only Almanac's own work differs: the fairer one.
    'The default-list ratio is the one the issue names; the same-paths ratio is the fairer one (same client work,',
    `same mean bytes: bare replays ${x.bareSamePaths.path.length > 60 ? `${x.bareSamePaths.path.slice(0, 57)}...` : x.bareSamePaths.path}).`,
  ].join('\n')
}

/** The in-process section: listEvents alone, cold and warm, against the 1 ms p50 budget. */
export function formatInProcess(r: InProcessResults, budgets: typeof READ_BUDGETS): string {
  const builds = Object.entries(r.searchBuildMs)
    .map(([lang, t]) => `${lang} ${ms(t)}`)
    .join(', ')
  const ok = (t: number) => t < budgets.queryP50Ms
  return [
    `In-process listEvents (no HTTP, no serialization, parameters parsed beforehand), best of ${r.rounds} rounds ` +
      `of ${r.iterations} runs per query; ` +
      `store + app built in ${seconds(r.storeAndAppMs)}`,
    `MiniSearch index build, paid once by the first search in each language: ${builds}`,
    table([
      ['query', 'matches', 'cold p50', 'cold p99', 'warm p50', 'warm p99', `p50 < ${ms3(budgets.queryP50Ms)}`],
      ...r.queries.map((q) => [
        q.name,
        int(q.matches),
        ms3(q.cold.p50Ms),
        ms3(q.cold.p99Ms),
        ms3(q.warm.p50Ms),
        ms3(q.warm.p99Ms),
        mark(ok(q.cold.p50Ms) && ok(q.warm.p50Ms)),
      ]),
    ]),
    'cold: every run misses the result cache (its dates or word moved one step; the default list runs after the',
    'cache is dropped, as an edit does); warm: one query repeated (cache hits, paging only). Budget: both p50s.',
  ].join('\n')
}
