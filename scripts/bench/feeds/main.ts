// `npm run bench:feeds`: the feeds section of `npm run bench` on its own, over a generated tree of BENCH_EVENTS
// (10,000) events; BENCH_BUILD=0 leaves out the two static builds. Results also in `.bench/feeds.json`.
import { join } from 'node:path'
import { envNumber } from '../common/load.ts'
import { formatHeader, runInfo } from '../common/machine.ts'
import { ROOT } from '../common/paths.ts'
import { runMain, withCorpus, writeJson } from '../common/run.ts'
import { formatFeeds, measureFeeds } from './feeds.ts'

runMain(async () => {
  await withCorpus('almanac-bench-feeds', 3600, async (run) => {
    const results = await measureFeeds(run.corpus, run.tmp, envNumber('BENCH_BUILD', 10) > 0)
    const info = runInfo(run)
    console.log(`\n${formatHeader(info)}\n\n${formatFeeds(results)}`)
    await writeJson([join(ROOT, '.bench', 'feeds.json')], { ...info, ...results })
  })
})
