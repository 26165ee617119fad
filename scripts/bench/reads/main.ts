// `npm run bench:reads` (issue 2 and list filters): cold start, memory and throughput of the real CLI over a
// generated 10,000-event tree, next to a bare h3 handler returning the same bytes, measured in the same run;
// then a varied mix of thousands of distinct queries, and listEvents timed in-process, cold and warm.
// Results in `.bench/reads.json`. Env: BENCH_SECONDS (10), BENCH_WARMUP (1), BENCH_CONNECTIONS (10),
// BENCH_EVENTS (10000), BENCH_MIX_PATHS (4000), BENCH_QUERY_RUNS (200), BENCH_QUERY_ROUNDS (3).
import { join } from 'node:path'
import { warningLines } from '../common/format.ts'
import { loadSettings } from '../common/load.ts'
import { formatHeader, runInfo } from '../common/machine.ts'
import { ROOT } from '../common/paths.ts'
import { log, runMain, withCorpus, writeJson } from '../common/run.ts'
import { READ_BUDGETS } from './budgets.ts'
import { measureReads } from './measure.ts'
import { formatReads } from './report.ts'
import { readResults } from './results.ts'

runMain(async () => {
  const settings = loadSettings()
  // Six load runs (Almanac and the baseline, each on the list, one event and the mix), plus generation,
  // start-ups, the mix check and the in-process runs; far beyond is a hang.
  const limitSeconds = 6 * (settings.seconds + settings.warmupSeconds) + 300
  await withCorpus('almanac-bench-reads', limitSeconds, async (run) => {
    const reads = await measureReads(run.corpus, settings, run.tmp, log)
    const results = {
      ...runInfo(run),
      settings,
      ...readResults(reads),
      budgets: READ_BUDGETS,
      serverWarnings: reads.almanac.warnings,
    }
    const report = [
      formatHeader(results),
      formatReads(results, settings),
      ...warningLines('Server', results.serverWarnings),
    ]
    console.log(`\n${report.join('\n')}`)
    await writeJson([join(ROOT, '.bench', 'reads.json')], results)
  })
})
