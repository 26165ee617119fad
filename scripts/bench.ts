// `npm run bench` (issues 2 and list filters): cold start, memory and throughput of the real CLI over a
// generated 10,000-event tree, next to a bare h3 handler returning the same bytes, measured in the same run;
// then a varied mix of thousands of distinct queries, and listEvents timed in-process, cold and warm;
// last, writes through the API (issue 4) and content changed on disk and by git checkout (issue 5).
// Env: BENCH_SECONDS (10), BENCH_WARMUP (1), BENCH_CONNECTIONS (10), BENCH_EVENTS (10000),
// BENCH_MIX_PATHS (4000), BENCH_QUERY_RUNS (200), BENCH_QUERY_ROUNDS (3), BENCH_CREATES (500),
// BENCH_UPDATES (200), BENCH_WRITERS (4), BENCH_WRITE_SECONDS (45, cap per write sequence),
// BENCH_SETTLE_SECONDS (30, longest wait for the server to go quiet), BENCH_EDITS (50), BENCH_CHECKOUT_FILES (1000),
// BENCH_BUILD (10 edits of one event after a full static build; 0 skips the build).
import { rmSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { killAllSync } from './bench/children.ts'
import { formatBuild, measureBuild } from './bench/build.ts'
import { generateContent, type Corpus } from './bench/content.ts'
import { editingSizes, measureEditing, type EditingRun, type EditingSizes } from './bench/editing.ts'
import { measureInProcess, type InProcessResults } from './bench/inprocess.ts'
import { envNumber, type LoadSettings } from './bench/load.ts'
import { API, measureAlmanac, measureBaseline, type AlmanacRun, type BareRun } from './bench/measure.ts'
import { BUDGETS, formatReport, writeJson, type BenchResults } from './bench/report.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

async function main(): Promise<void> {
  const settings: LoadSettings = {
    connections: envNumber('BENCH_CONNECTIONS', 10),
    seconds: envNumber('BENCH_SECONDS', 10),
    warmupSeconds: envNumber('BENCH_WARMUP', 1),
  }
  const sizes = editingSizes()
  const tmp = join(os.tmpdir(), `almanac-bench-${process.pid}`)
  const loadBefore = os.loadavg()[0]!
  installCleanup(tmp, settings, sizes)
  try {
    log(`generating content in ${tmp} …`)
    const generating = performance.now()
    const corpus = await generateContent(join(tmp, 'content'), envNumber('BENCH_EVENTS', 10_000))
    const generateMs = performance.now() - generating
    if (!corpus.sampleEventId) throw new Error('the generated content has no upcoming published event to request')
    log(`measuring Almanac (cold start, then ${settings.seconds} s per target, then the varied mix) …`)
    const almanac = await measureAlmanac(corpus, settings, tmp)
    log('measuring the bare h3 baseline …')
    const bare = await measureBaseline(almanac.targets, almanac.mix, settings, tmp)
    // After the read load tests, before the writes change the tree: the queries see the generated corpus.
    log('timing listEvents in-process …')
    const inProcess = await measureInProcess(
      corpus,
      envNumber('BENCH_QUERY_RUNS', 200),
      Math.max(1, envNumber('BENCH_QUERY_ROUNDS', 3)),
    )
    const editing = await measureEditing(corpus, settings, sizes, tmp, log)
    const editsOfBuild = envNumber('BENCH_BUILD', 10)
    if (editsOfBuild > 0) log('static build: a full build, then edits of one event …')
    const build =
      editsOfBuild > 0 ? await measureBuild(join(tmp, 'content'), join(tmp, 'dist'), editsOfBuild) : undefined
    const results = {
      ...assemble(corpus, generateMs, settings, almanac, bare, inProcess, editing, sizes, loadBefore),
      ...(build ? { build } : {}),
    }
    console.log(`\n${formatReport(results)}`)
    if (build) console.log(`\n${formatBuild(build)}`)
    const files = ['issue-2.json', 'results.json'].map((name) => join(ROOT, '.bench', name))
    for (const file of files) await writeJson(file, results)
    log(`\nresults written to ${files.join(' and ')}`)
  } finally {
    killAllSync()
    await rm(tmp, { recursive: true, force: true })
  }
}

/** Every measurement of the run, in the shape the report prints and the JSON keeps. */
function assemble(
  corpus: Corpus,
  generateMs: number,
  settings: LoadSettings,
  almanac: AlmanacRun,
  bare: BareRun,
  inProcess: InProcessResults,
  editing: EditingRun,
  sizes: EditingSizes,
  loadBefore: number,
): BenchResults {
  const cpus = os.cpus()
  return {
    date: new Date().toISOString(),
    machine: {
      cpu: cpus[0]?.model.trim() ?? 'unknown',
      cores: cpus.length,
      memoryGb: os.totalmem() / 1024 ** 3,
      node: process.version,
      platform: `${os.platform()} ${os.release()} ${os.arch()}`,
      loadBefore,
    },
    content: {
      files: corpus.files,
      megabytes: corpus.bytes / 1024 ** 2,
      events: corpus.events,
      languages: 4,
      generateMs,
    },
    settings,
    coldStart: almanac.coldStart,
    memory: almanac.memory,
    targets: almanac.targets.map((t, i) => ({
      name: t.name,
      path: `${API}${t.path}`,
      responseBytes: t.answer.body.length,
      contentType: t.answer.contentType,
      almanac: t.load,
      bare: bare.targets[i]!,
      ratio: t.load.requestsPerSec / bare.targets[i]!.requestsPerSec,
    })),
    mix: mixResult(almanac, bare),
    inProcess,
    editingSizes: sizes,
    writes: editing.writes,
    live: editing.live,
    budgets: BUDGETS,
    serverWarnings: almanac.warnings,
    editingWarnings: editing.warnings,
  }
}

/** The mix for the JSON: counts and loads, not the thousands of paths or the replayed body. */
function mixResult(almanac: AlmanacRun, bare: BareRun): BenchResults['mix'] {
  const { mix } = almanac
  const list = almanac.targets.findIndex((t) => t.name === 'list')
  const rps = mix.almanac.requestsPerSec
  return {
    paths: mix.paths.length,
    generated: mix.generated,
    dropped: mix.dropped,
    droppedSample: mix.droppedSample,
    kinds: mix.kinds,
    verifyMs: mix.verifyMs,
    meanBytes: mix.meanBytes,
    samplePaths: mix.paths.slice(0, 20),
    almanac: mix.almanac,
    bareList: { bytes: almanac.targets[list]!.answer.body.length, load: bare.targets[list]! },
    bareSamePaths: { path: mix.representative.path, bytes: mix.representative.bytes, load: bare.mix },
    ratioVsBareList: rps / bare.targets[list]!.requestsPerSec,
    ratioVsBareSamePaths: rps / bare.mix.requestsPerSec,
  }
}

/** Children and the temp tree go away on every exit path: error, Ctrl-C, SIGTERM or a hung run. */
function installCleanup(tmp: string, settings: LoadSettings, sizes: EditingSizes): void {
  const reap = () => {
    killAllSync()
    rmSync(tmp, { recursive: true, force: true })
  }
  process.once('exit', reap)
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`\nbench: ${signal}, cleaning up`)
      process.exit(130)
    })
  }
  // Eight load runs plus generation, start-ups, the mix check and the in-process runs, then the capped write
  // sequences, up to eight waits for the server to settle and two checkouts of up to a minute; far beyond is a hang.
  const editingSeconds = 2 * sizes.capSeconds + 8 * sizes.settleSeconds + 2 * 60
  // The static build of 10,000 events takes minutes on this machine: allowed for on top.
  const buildSeconds = envNumber('BENCH_BUILD', 10) > 0 ? 600 : 0
  const limitMs = (8 * (settings.seconds + settings.warmupSeconds) + 300 + editingSeconds + buildSeconds) * 1000
  setTimeout(() => {
    console.error(`bench: still running after ${Math.round(limitMs / 1000)} s, giving up`)
    process.exit(1)
  }, limitMs).unref()
}

/** Progress goes to stderr so stdout carries only the report. */
function log(message: string): void {
  console.error(message)
}

main().catch((error: unknown) => {
  console.error(`bench failed: ${(error as Error).stack ?? String(error)}`)
  process.exitCode = 1
})
