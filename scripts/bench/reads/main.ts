// `npm run bench:reads`: the read goals over a generated 10,000-event tree. Cold start and memory of the
// real CLI, every URL and the varied mix next to their limit (bare node:http replaying the same bytes), the
// loader's share, a start over 40,000 events, and listEvents in-process. Results in `.bench/reads.json`.
// Env: BENCH_CONNECTIONS (32), BENCH_SECONDS (2), BENCH_ROUNDS (3), BENCH_WARMUP (1), BENCH_EVENTS (10000),
// BENCH_MIX_PATHS (3000), BENCH_SOAK_SECONDS (60), BENCH_COLD_40K (40000, 0 skips), BENCH_QUERY_RUNS (200),
// BENCH_QUERY_ROUNDS (3), BENCH_TOOL (autocannon to use it even where wrk is installed).
import { join } from 'node:path'
import { warningLines } from '../common/format.ts'
import { formatSummary, summarize } from '../common/goals.ts'
import { loadSeconds, loadSettings } from '../common/load.ts'
import { formatHeader, runInfo } from '../common/machine.ts'
import { ROOT } from '../common/paths.ts'
import { log, runMain, withCorpus, writeJson } from '../common/run.ts'
import { READ_GOALS } from './budgets.ts'
import { readGoals } from './goals.ts'
import { measureReads } from './measure.ts'
import { formatReads } from './report.ts'
import { readResults } from './results.ts'

runMain(async () => {
  const settings = loadSettings()
  // 24 load tests (12 URLs on Almanac and the limit), the soak, generation of both trees, start-ups, captures.
  const limitSeconds = 24 * (loadSeconds(settings) + 5) + 60 + 900
  await withCorpus('almanac-bench-reads', limitSeconds, async (run) => {
    const reads = await measureReads(run.corpus, settings, run.tmp, log)
    const results = { ...runInfo(run), settings, ...readResults(reads), goals: READ_GOALS }
    const summary = summarize(readGoals(results, run.corpus.events), run.corpus.events)
    const report = [formatHeader(results), formatReads(results, settings), '', formatSummary(summary)]
    console.log(`\n${[...report, ...warningLines('Server', reads.almanac.warnings)].join('\n')}`)
    await writeJson([join(ROOT, '.bench', 'reads.json')], { summary, ...results })
  })
})
