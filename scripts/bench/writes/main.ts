// `npm run bench:writes` (issue 4): the real CLI with a users file over a generated 10,000-event tree,
// written to through the API: creates and updates one at a time, then the default list loaded alone and
// while concurrent writers keep changing events. Results in `.bench/writes.json`.
// Env: BENCH_EVENTS (10000), BENCH_SECONDS (10), BENCH_WARMUP (1), BENCH_CONNECTIONS (10), BENCH_CREATES (500),
// BENCH_UPDATES (200), BENCH_WRITERS (4), BENCH_WRITE_SECONDS (45, cap per write sequence),
// BENCH_SETTLE_SECONDS (30, longest wait for the server to go quiet).
import { join } from 'node:path'
import { warningLines } from '../common/format.ts'
import { formatSummary, summarize } from '../common/goals.ts'
import { loadSettings } from '../common/load.ts'
import { formatHeader, runInfo } from '../common/machine.ts'
import { ROOT } from '../common/paths.ts'
import { log, runMain, withCorpus, writeJson } from '../common/run.ts'
import { pickEvents, settleSeconds, settler, warningsOf, withServer, type KnownEvent } from '../common/server.ts'
import { formatWrites, WRITE_BUDGETS, writeGoals } from './report.ts'
import { measureWrites, WRITER_SET, writeSizes } from './writes.ts'

runMain(async () => {
  const settings = loadSettings()
  const sizes = { ...writeSizes(), settleSeconds: settleSeconds() }
  // Two capped write sequences, three load runs, four waits to settle, generation and start-up.
  const limitSeconds =
    2 * sizes.capSeconds + 3 * (settings.seconds + settings.warmupSeconds) + 4 * sizes.settleSeconds + 300
  await withCorpus('almanac-bench-writes', limitSeconds, async (run) => {
    const picks = pickEvents(run.corpus, [sizes.updates, WRITER_SET * sizes.writers])
    const [updated, written] = picks as [KnownEvent[], KnownEvent[]]
    const { writes, warnings } = await withServer(run.corpus, run.tmp, async (server, child) => {
      log(
        `writes: ${sizes.creates} creates, ${sizes.updates} updates, then reads alone and with ${sizes.writers} writers …`,
      )
      const settle = settler(server, sizes.settleSeconds)
      const writes = await measureWrites(server, settings, sizes, updated, written, settle)
      return { writes, warnings: warningsOf(child) }
    })
    const results = { ...runInfo(run), settings, sizes, writes, budgets: WRITE_BUDGETS, serverWarnings: warnings }
    const report = [
      formatHeader(results),
      '',
      formatWrites(writes, settings, sizes, WRITE_BUDGETS),
      ...warningLines('The writes server', warnings),
      '',
      formatSummary(summarize(writeGoals(writes), run.corpus.events)),
    ]
    console.log(`\n${report.join('\n')}`)
    await writeJson([join(ROOT, '.bench', 'writes.json')], results)
  })
})
