// `npm run bench`: every subject in turn over one generated 10,000-event tree, as one report. Reads (issues 2
// and list filters: cold start, memory and throughput of the real CLI next to a bare h3 handler returning the
// same bytes, a varied mix of thousands of distinct queries, listEvents timed in-process, cold and warm); then
// writes through the API (issue 4) and content changed on disk and by git checkout (issue 5) on one server;
// last, the static build. Each subject also runs alone: npm run bench:reads, bench:writes, bench:watch, bench:build.
// Env: BENCH_SECONDS (10), BENCH_WARMUP (1), BENCH_CONNECTIONS (10), BENCH_EVENTS (10000),
// BENCH_MIX_PATHS (4000), BENCH_QUERY_RUNS (200), BENCH_QUERY_ROUNDS (3), BENCH_CREATES (500),
// BENCH_UPDATES (200), BENCH_WRITERS (4), BENCH_WRITE_SECONDS (45, cap per write sequence),
// BENCH_SETTLE_SECONDS (30, longest wait for the server to go quiet), BENCH_EDITS (50), BENCH_CHECKOUT_FILES (1000),
// BENCH_BUILD (10 edits of one event after a full static build; 0 skips the build).
import { join } from 'node:path'
import { formatBuild, measureBuild } from './build/build.ts'
import { READ_BUDGETS } from './reads/budgets.ts'
import { measureReads } from './reads/measure.ts'
import { formatReads } from './reads/report.ts'
import { readResults, type ReadResults } from './reads/results.ts'
import { warningLines } from './common/format.ts'
import { envNumber, loadSettings, type LoadSettings } from './common/load.ts'
import { formatHeader, runInfo, type RunInfo } from './common/machine.ts'
import { ROOT } from './common/paths.ts'
import { log, runMain, withCorpus, writeJson, type BenchRun } from './common/run.ts'
import { pickEvents, settleSeconds, settler, warningsOf, withServer, type KnownEvent } from './common/server.ts'
import { formatLive, WATCH_BUDGETS } from './watch/report.ts'
import { measureWatch, watchCounts, watchSizes, type WatchResult, type WatchSizes } from './watch/watch.ts'
import { formatWrites, WRITE_BUDGETS } from './writes/report.ts'
import { measureWrites, WRITER_SET, writeSizes, type WriteSizes, type WritesResult } from './writes/writes.ts'

/** The write and watch sections' sizes, as the JSON keeps them. */
type EditingSizes = WriteSizes & { settleSeconds: number } & WatchSizes

/** What the write and watch sections measured on their shared server, and what it printed besides its banner. */
interface EditingRun {
  writes: WritesResult
  live: WatchResult
  warnings: string[]
}

const BUDGETS = { ...READ_BUDGETS, ...WRITE_BUDGETS, ...WATCH_BUDGETS }

/** Everything one run measured, as written to `.bench/issue-2.json` and `.bench/results.json`. */
interface BenchResults extends RunInfo, ReadResults {
  settings: LoadSettings
  editingSizes: EditingSizes
  writes: WritesResult
  live: WatchResult
  budgets: typeof BUDGETS
  serverWarnings: string[]
  /** What the second server (users file, writes, live edits) printed besides its banner. */
  editingWarnings: string[]
}

/** The subjects in turn over one tree: reads, then writes and watch on one server, then the build; one report. */
async function main(settings: LoadSettings, sizes: EditingSizes, run: BenchRun): Promise<void> {
  const { corpus, tmp } = run
  const reads = await measureReads(corpus, settings, tmp, log)
  const editing = await measureEditing(run, settings, sizes)
  const editsOfBuild = envNumber('BENCH_BUILD', 10)
  if (editsOfBuild > 0) log('static build: a full build, then edits of one event …')
  const build = editsOfBuild > 0 ? await measureBuild(join(tmp, 'content'), join(tmp, 'dist'), editsOfBuild) : undefined
  const results: BenchResults = {
    ...runInfo(run),
    settings,
    ...readResults(reads),
    editingSizes: sizes,
    writes: editing.writes,
    live: editing.live,
    budgets: BUDGETS,
    serverWarnings: reads.almanac.warnings,
    editingWarnings: editing.warnings,
    ...(build ? { build } : {}),
  }
  console.log(`\n${formatReport(results)}`)
  if (build) console.log(`\n${formatBuild(build)}`)
  await writeJson(
    ['issue-2.json', 'results.json'].map((name) => join(ROOT, '.bench', name)),
    results,
  )
}

/** One server with a users file: the write section, then the watch section. It changes the tree, so it runs after the reads. */
async function measureEditing(run: BenchRun, settings: LoadSettings, sizes: EditingSizes): Promise<EditingRun> {
  const counts = [sizes.updates, WRITER_SET * sizes.writers, ...watchCounts(sizes)]
  const picks = pickEvents(run.corpus, counts)
  const [updated, written, edited, checkedOut] = picks as [KnownEvent[], KnownEvent[], KnownEvent[], KnownEvent[]]
  return withServer(run.corpus, run.tmp, async (server, child) => {
    const settle = settler(server, sizes.settleSeconds)
    log(
      `writes: ${sizes.creates} creates, ${sizes.updates} updates, then reads alone and with ${sizes.writers} writers …`,
    )
    const writes = await measureWrites(server, settings, sizes, updated, written, settle)
    log(`live content: ${sizes.edits} edits on disk, then a git checkout of ${sizes.checkoutFiles} files …`)
    const live = await measureWatch(server, edited, checkedOut, settle)
    return { writes, live, warnings: warningsOf(child) }
  })
}

/** The whole report: header, reads, writes, live content, then what either server printed besides its banner. */
function formatReport(r: BenchResults): string {
  const out = [formatHeader(r), formatReads(r, r.settings)]
  out.push('', formatWrites(r.writes, r.settings, r.editingSizes, BUDGETS), '', formatLive(r.live, BUDGETS))
  out.push(...warningLines('Server', r.serverWarnings))
  out.push(...warningLines('The writes and live-content server', r.editingWarnings))
  return out.join('\n')
}

/**
 * A hung run's limit: eight load runs plus generation, start-ups, the mix check and the in-process runs, then
 * the capped write sequences, up to eight waits for the server to settle and two checkouts of up to a minute;
 * the static build of 10,000 events takes minutes on this machine: allowed for on top.
 */
function limitSeconds(settings: LoadSettings, sizes: EditingSizes): number {
  const editingSeconds = 2 * sizes.capSeconds + 8 * sizes.settleSeconds + 2 * 60
  const buildSeconds = envNumber('BENCH_BUILD', 10) > 0 ? 600 : 0
  return 8 * (settings.seconds + settings.warmupSeconds) + 300 + editingSeconds + buildSeconds
}

runMain(async () => {
  const settings = loadSettings()
  const sizes: EditingSizes = { ...writeSizes(), settleSeconds: settleSeconds(), ...watchSizes() }
  await withCorpus('almanac-bench', limitSeconds(settings, sizes), (run) => main(settings, sizes, run))
})
