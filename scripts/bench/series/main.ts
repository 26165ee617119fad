// `npm run bench:series`: the series section of `npm run bench` on its own. Generates the tree (BENCH_EVENTS,
// 10,000) and the same tree with BENCH_SERIES (500) weekly open-ended series, and measures both alike: cold start
// (spawn -> first 200), the varied mix next to its limit, RSS after the mix ran BENCH_SOAK_SECONDS, listEvents
// in-process, and the static build (BENCH_BUILD=0 skips it). Reported numbers, not goals; `.bench/series.json`.
// The quick-run knobs of all.ts apply (BENCH_EVENTS=400 BENCH_SERIES=20 BENCH_SECONDS=1 BENCH_WARMUP=0 …).
import { join } from 'node:path'
import { envNumber, loadSeconds, loadSettings } from '../common/load.ts'
import { formatHeader, runInfo } from '../common/machine.ts'
import { ROOT } from '../common/paths.ts'
import { runMain, withCorpus, writeJson } from '../common/run.ts'
import { measureWithSeries, seriesCount, seriesEdits, seriesSection } from './section.ts'
import { measureTree } from './tree.ts'

runMain(async () => {
  const settings = loadSettings()
  const count = seriesCount()
  if (count === 0) throw new Error('BENCH_SERIES=0: no series to compare')
  // Per tree: 2 mix load tests and the soak, a start, generation, in-process runs; builds of minutes (longer with series).
  const perTree = 2 * (loadSeconds(settings) + 5) + envNumber('BENCH_SOAK_SECONDS', 60)
  const limitSeconds = 2 * perTree + 900 + 2400
  await withCorpus('almanac-bench-series', limitSeconds, async (run) => {
    const without = await measureTree(run.corpus, settings, run.tmp, seriesEdits())
    const withSeries = await measureWithSeries(run.corpus, settings, run.tmp, count)
    const { result, text } = seriesSection(without, withSeries)
    const info = runInfo(run)
    console.log(`\n${formatHeader(info)}\n\n${text}`)
    await writeJson([join(ROOT, '.bench', 'series.json')], { ...info, settings, ...result })
  })
})
