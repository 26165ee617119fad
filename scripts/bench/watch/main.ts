// `npm run bench:watch` (issue 5): the real CLI over a generated 10,000-event tree it watches; how long until
// the API serves an edit saved on disk, then a git checkout of many files there and back.
// Results in `.bench/watch.json`. Env: BENCH_EVENTS (10000), BENCH_EDITS (50), BENCH_CHECKOUT_FILES (1000),
// BENCH_SETTLE_SECONDS (30, longest wait for the server to go quiet).
import { join } from 'node:path'
import { warningLines } from '../common/format.ts'
import { formatSummary, summarize } from '../common/goals.ts'
import { formatHeader, runInfo } from '../common/machine.ts'
import { ROOT } from '../common/paths.ts'
import { log, runMain, withCorpus, writeJson } from '../common/run.ts'
import { pickEvents, settleSeconds, settler, warningsOf, withServer, type KnownEvent } from '../common/server.ts'
import { formatLive, WATCH_BUDGETS, watchGoals } from './report.ts'
import { measureWatch, watchCounts, watchSizes } from './watch.ts'

runMain(async () => {
  const sizes = { ...watchSizes(), settleSeconds: settleSeconds() }
  // Five waits to settle, two checkouts of up to a minute, the edits, generation and start-up.
  const limitSeconds = 5 * sizes.settleSeconds + 2 * 60 + 300
  await withCorpus('almanac-bench-watch', limitSeconds, async (run) => {
    const [edited, checkedOut] = pickEvents(run.corpus, watchCounts(sizes)) as [KnownEvent[], KnownEvent[]]
    const { live, warnings } = await withServer(run.corpus, run.tmp, async (server, child) => {
      log(`live content: ${sizes.edits} edits on disk, then a git checkout of ${sizes.checkoutFiles} files …`)
      const live = await measureWatch(server, edited, checkedOut, settler(server, sizes.settleSeconds))
      return { live, warnings: warningsOf(child) }
    })
    const results = { ...runInfo(run), sizes, live, budgets: WATCH_BUDGETS, serverWarnings: warnings }
    const report = [
      formatHeader(results),
      '',
      formatLive(live, WATCH_BUDGETS),
      ...warningLines('The live-content server', warnings),
      '',
      formatSummary(summarize(watchGoals(live), run.corpus.events)),
    ]
    console.log(`\n${report.join('\n')}`)
    await writeJson([join(ROOT, '.bench', 'watch.json')], results)
  })
})
