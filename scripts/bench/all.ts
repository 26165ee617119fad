// `npm run bench`: every goal of issue 13 measured in one run over one generated 10,000-event tree, each printed
// with ✓ or ✗, then a summary (also in `.bench/results.json`). Reads first (cold start, each URL and the varied
// mix next to their limit: bare node:http replaying the same bytes; the loader's share and a start at 40k;
// memory after a minute of the mix; query times in-process); then the static build of the tree as generated; then
// writes through the API and edits on disk on one server; then the feeds (issue 15: the whole-calendar feed cold,
// cached and after an edit, and what feeds add to a build); last, the series section (reported numbers, not
// goals): the same tree again with BENCH_SERIES weekly open-ended series, its start, mix, memory, queries and
// build next to the plain tree's numbers taken above. Each subject also runs alone: npm run bench:reads,
// bench:writes, …, bench:series.
// Servers are pinned to core 0 and the load generator (wrk, else autocannon) to core 1 where taskset exists.
// Env (defaults): BENCH_CONNECTIONS (32), BENCH_SECONDS (2 per round), BENCH_ROUNDS (3), BENCH_WARMUP (1),
// BENCH_EVENTS (10000), BENCH_MIX_PATHS (3000), BENCH_SOAK_SECONDS (60: the mix's minute before the RSS sample),
// BENCH_COLD_STARTS (3 starts at 10k, the goal reads their median), BENCH_COLD_40K (40000 events for the bigger
// start; 0 skips), BENCH_QUERY_RUNS (200), BENCH_QUERY_ROUNDS (3),
// BENCH_CREATES (500), BENCH_UPDATES (200), BENCH_WRITERS (4), BENCH_WRITE_SECONDS (45, cap per write sequence),
// BENCH_SETTLE_SECONDS (30, longest wait for the server to go quiet), BENCH_EDITS (50), BENCH_CHECKOUT_FILES (1000),
// BENCH_BUILD (10 edits of one event after a full static build; 0 skips the build), BENCH_BUILD_COMMITS (1: commit
// each edit into a repository beside the tree and time it; 0: do not), BENCH_TOOL (autocannon),
// BENCH_SERIES (500 weekly open-ended series for the series section; 0 skips it).
// A quick run of a few minutes: BENCH_EVENTS=400 BENCH_SECONDS=1 BENCH_WARMUP=0 BENCH_ROUNDS=1 BENCH_SOAK_SECONDS=5
// BENCH_COLD_40K=1600 BENCH_MIX_PATHS=300 BENCH_QUERY_RUNS=20 BENCH_CREATES=20 BENCH_UPDATES=20 BENCH_EDITS=5
// BENCH_CHECKOUT_FILES=20 BENCH_SETTLE_SECONDS=3 BENCH_BUILD=3 BENCH_SERIES=20 npm run bench
import { join } from 'node:path'
import { buildGoals, formatBuild } from './build/build.ts'
import { measureBuildApart } from './common/build-run.ts'
import { warningLines } from './common/format.ts'
import { formatSummary, summarize } from './common/goals.ts'
import { envNumber, loadSeconds, loadSettings, type LoadSettings } from './common/load.ts'
import { formatHeader, runInfo } from './common/machine.ts'
import { ROOT } from './common/paths.ts'
import { flushDisk, log, runMain, withCorpus, writeJson, type BenchRun } from './common/run.ts'
import { pickEvents, settleSeconds, settler, warningsOf, withServer, type KnownEvent } from './common/server.ts'
import { readGoals } from './reads/goals.ts'
import { measureReads } from './reads/measure.ts'
import { formatReads } from './reads/report.ts'
import { readResults } from './reads/results.ts'
import { formatLive, WATCH_BUDGETS, watchGoals } from './watch/report.ts'
import { measureWatch, watchCounts, watchSizes, type WatchResult, type WatchSizes } from './watch/watch.ts'
import { formatWrites, WRITE_BUDGETS, writeGoals } from './writes/report.ts'
import { measureWrites, WRITER_SET, writeSizes, type WriteSizes, type WritesResult } from './writes/writes.ts'
import { measureWithSeries, seriesCount, seriesSection } from './series/section.ts'
import { fromMainRun } from './series/tree.ts'
import { formatFeeds, measureFeeds } from './feeds/feeds.ts'

/** The write and watch sections' sizes, as the JSON keeps them. */
type EditingSizes = WriteSizes & { settleSeconds: number } & WatchSizes

/** What the write and watch sections measured on their shared server, and what it printed besides its banner. */
interface EditingRun {
  writes: WritesResult
  live: WatchResult
  warnings: string[]
}

/**
 * The subjects in turn over one tree: reads, then the build, then writes and watch on one server; one report. The
 * build comes before the writes: they replace files, and on the shared machine's disk, files made within minutes
 * of others being removed nearby cost more (`withCorpus`, common/run.ts).
 */
async function main(settings: LoadSettings, sizes: EditingSizes, run: BenchRun): Promise<void> {
  const { corpus, tmp } = run
  const reads = readResults(await measureReads(corpus, settings, tmp, log))
  const editsOfBuild = envNumber('BENCH_BUILD', 10)
  if (editsOfBuild > 0) log('static build: a full build, then edits of one event …')
  const build =
    editsOfBuild > 0
      ? await measureBuildApart({
          content: join(tmp, 'content'),
          out: join(tmp, 'dist'),
          edits: editsOfBuild,
          commits: envNumber('BENCH_BUILD_COMMITS', 1) > 0,
        })
      : undefined
  // The build's 750 MB on disk before the writes time their fsyncs.
  flushDisk()
  const editing = await measureEditing(run, settings, sizes)
  const goals = [
    ...readGoals(reads, corpus.events),
    ...buildGoals(build),
    ...writeGoals(editing.writes),
    ...watchGoals(editing.live),
  ]
  const feeds = await measureFeeds(corpus, tmp, editsOfBuild > 0)
  // Its two builds' 1.5 GB on disk before the series section times a start.
  flushDisk()
  const count = seriesCount()
  const series =
    count > 0
      ? seriesSection(fromMainRun(corpus, reads, build), await measureWithSeries(corpus, settings, tmp, count))
      : undefined
  const summary = summarize(goals, corpus.events)
  const info = runInfo(run)
  const out = [formatHeader(info), formatReads(reads, settings), '']
  if (build) out.push(formatBuild(build), '')
  out.push(formatWrites(editing.writes, settings, sizes, WRITE_BUDGETS), '', formatLive(editing.live, WATCH_BUDGETS))
  out.push('', formatFeeds(feeds))
  if (series) out.push('', series.text)
  out.push(...warningLines('The writes and live-content server', editing.warnings), '', formatSummary(summary))
  console.log(`\n${out.join('\n')}`)
  const details = { ...info, settings, reads, editingSizes: sizes, ...editing, ...(build ? { build } : {}), feeds }
  await writeJson([join(ROOT, '.bench', 'results.json')], {
    ...summary,
    ...(series ? { series: series.result } : {}),
    details,
  })
}

/** One server with a users file: the write section, then the watch section. They change the tree: after the build. */
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

/**
 * A hung run's limit: 24 read load tests, the soak, two starts and their trees, the capped write sequences, eight
 * waits for the server to settle and two checkouts of up to a minute; the static build takes minutes: on top.
 */
function limitSeconds(settings: LoadSettings, sizes: EditingSizes): number {
  const readSeconds = 27 * (loadSeconds(settings) + 5) + envNumber('BENCH_SOAK_SECONDS', 60) + 900
  const editingSeconds = 2 * sizes.capSeconds + 8 * sizes.settleSeconds + 2 * 60
  // The feeds section: feeds of the tree, and two more builds (with and without feeds).
  const buildSeconds = envNumber('BENCH_BUILD', 10) > 0 ? 600 + 600 : 60
  // The series section: a tree generated again, a start, the mix and its limit, the soak, in-process, a bigger build.
  const seriesSeconds =
    seriesCount() > 0 ? 2 * (loadSeconds(settings) + 5) + envNumber('BENCH_SOAK_SECONDS', 60) + 2400 : 0
  return readSeconds + editingSeconds + buildSeconds + seriesSeconds
}

runMain(async () => {
  const settings = loadSettings()
  const sizes: EditingSizes = { ...writeSizes(), settleSeconds: settleSeconds(), ...watchSizes() }
  await withCorpus('almanac-bench', limitSeconds(settings, sizes), (run) => main(settings, sizes, run))
})
