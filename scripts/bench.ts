// `npm run bench` (issue 2): cold start, memory and throughput of the real CLI over a generated
// 10,000-event tree, next to a bare h3 handler returning the same bytes, measured in the same run.
// Env: BENCH_SECONDS (10), BENCH_WARMUP (1), BENCH_CONNECTIONS (10), BENCH_EVENTS (10000).
import { rmSync } from 'node:fs'
import { rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { BaselineRoute } from './bench/baseline.ts'
import { firstOk, freePort, get, killAllSync, memoryOf, startChild, stopChild, waitForLine, withOutput, type Answer } from './bench/children.ts'
import { generateContent, type Corpus } from './bench/content.ts'
import { envNumber, loadTest, type LoadResult, type LoadSettings } from './bench/load.ts'
import { BUDGETS, formatReport, writeJson, type BenchResults } from './bench/report.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const API = '/wp-json/calendar/events/v1'
const START_TIMEOUT_MS = 60_000
const SERVER_LINES = /^(Almanac is serving|\s+➜ API:)/

/** One target as the real server answered it, before and under load. */
interface Measured {
  name: string
  path: string
  answer: Answer
  load: LoadResult
}

/** What the Almanac child yielded: cold start, memory, per-target loads and anything it complained about. */
interface AlmanacRun {
  coldStart: BenchResults['coldStart']
  memory: BenchResults['memory']
  targets: Measured[]
  warnings: string[]
}

async function main(): Promise<void> {
  const settings: LoadSettings = {
    connections: envNumber('BENCH_CONNECTIONS', 10),
    seconds: envNumber('BENCH_SECONDS', 10),
    warmupSeconds: envNumber('BENCH_WARMUP', 1),
  }
  const tmp = join(os.tmpdir(), `almanac-bench-${process.pid}`)
  installCleanup(tmp, settings)
  try {
    log(`generating content in ${tmp} …`)
    const generating = performance.now()
    const corpus = await generateContent(join(tmp, 'content'), envNumber('BENCH_EVENTS', 10_000))
    const generateMs = performance.now() - generating
    if (!corpus.sampleEventId) throw new Error('the generated content has no upcoming published event to request')
    log(`measuring Almanac (cold start, then ${settings.seconds} s per target) …`)
    const almanac = await measureAlmanac(corpus, settings, tmp)
    log('measuring the bare h3 baseline …')
    const bare = await measureBaseline(almanac.targets, settings, tmp)
    const results = assemble(corpus, generateMs, settings, almanac, bare)
    console.log(`\n${formatReport(results)}`)
    const file = join(ROOT, '.bench', 'issue-2.json')
    await writeJson(file, results)
    log(`\nresults written to ${file}`)
  } finally {
    killAllSync()
    await rm(tmp, { recursive: true, force: true })
  }
}

/** Spawns the real CLI as a user would, times its start, then loads the default list and one event. */
async function measureAlmanac(corpus: Corpus, settings: LoadSettings, tmp: string): Promise<AlmanacRun> {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}${API}`
  // cwd is the temp dir so a developer's almanac.config.yaml cannot change what is measured.
  const child = startChild(
    [join(ROOT, 'bin', 'almanac.js'), 'serve', '--content', corpus.dir, '--port', String(port), '--host', '127.0.0.1'],
    tmp,
  )
  try {
    const serving = await waitForLine(child, /^Almanac is serving/, START_TIMEOUT_MS)
    const first = await firstOk(`${base}/events`, START_TIMEOUT_MS)
    const afterLoad = await memoryOf(child.pid)
    const paths = { list: '/events', single: `/events/${corpus.sampleEventId}` }
    const single = await get(`${base}${paths.single}`)
    if (single.status !== 200) throw new Error(`GET ${paths.single}: HTTP ${single.status} ${single.body.toString('utf8').slice(0, 200)}`)
    const targets: Measured[] = []
    for (const [name, answer] of [['list', first.answer], ['single', single]] as const) {
      const path = paths[name]
      targets.push({ name, path, answer, load: await loadTest(`${base}${path}`, settings) })
    }
    const afterTests = await memoryOf(child.pid)
    const readyIn = /ready in (\d+) ms/.exec(serving.line)?.[1]
    return {
      coldStart: {
        servingLineMs: serving.at - child.spawnedAt,
        firstListMs: first.at - child.spawnedAt,
        firstListRequestMs: first.answer.ms,
        serverReadyMs: readyIn === undefined ? null : Number(readyIn),
        records: /\(([^)]*)\)/.exec(serving.line)?.[1] ?? serving.line,
      },
      memory: { afterLoadMb: afterLoad.rssMb, afterTestsMb: afterTests.rssMb, peakMb: afterTests.peakMb },
      targets,
      warnings: child.lines.filter((line) => !SERVER_LINES.test(line)),
    }
  } catch (error) {
    throw withOutput(error, child)
  } finally {
    await stopChild(child)
  }
}

/** Replays Almanac's exact bytes from a bare h3 app in its own process, under the same load. */
async function measureBaseline(targets: Measured[], settings: LoadSettings, tmp: string): Promise<LoadResult[]> {
  const routes: BaselineRoute[] = []
  for (const target of targets) {
    const bodyFile = join(tmp, `baseline-${target.name}.body`)
    await writeFile(bodyFile, target.answer.body)
    routes.push({ path: `${API}${target.path}`, contentType: target.answer.contentType, bodyFile })
  }
  const manifest = join(tmp, 'baseline.json')
  await writeFile(manifest, JSON.stringify(routes))
  const child = startChild(['--import', 'tsx', join(ROOT, 'scripts', 'bench', 'baseline.ts'), manifest], ROOT)
  try {
    const { line } = await waitForLine(child, /^baseline listening on \d+$/, START_TIMEOUT_MS)
    const base = `http://127.0.0.1:${line.split(' ').pop()}`
    const results: LoadResult[] = []
    for (const [i, route] of routes.entries()) {
      const check = await get(`${base}${route.path}`)
      // A baseline that answers different bytes would make the ratio meaningless.
      const same = check.body.equals(targets[i]!.answer.body) && check.contentType === route.contentType
      if (check.status !== 200 || !same) throw new Error(`baseline ${route.path} does not replay Almanac's bytes`)
      results.push(await loadTest(`${base}${route.path}`, settings))
    }
    return results
  } catch (error) {
    throw withOutput(error, child)
  } finally {
    await stopChild(child)
  }
}

function assemble(corpus: Corpus, generateMs: number, settings: LoadSettings, almanac: AlmanacRun, bare: LoadResult[]): BenchResults {
  const cpus = os.cpus()
  return {
    date: new Date().toISOString(),
    machine: {
      cpu: cpus[0]?.model.trim() ?? 'unknown',
      cores: cpus.length,
      memoryGb: os.totalmem() / 1024 ** 3,
      node: process.version,
      platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    },
    content: { files: corpus.files, megabytes: corpus.bytes / 1024 ** 2, events: corpus.events, languages: 4, generateMs },
    settings,
    coldStart: almanac.coldStart,
    memory: almanac.memory,
    targets: almanac.targets.map((t, i) => ({
      name: t.name,
      path: `${API}${t.path}`,
      responseBytes: t.answer.body.length,
      contentType: t.answer.contentType,
      almanac: t.load,
      bare: bare[i]!,
      ratio: t.load.requestsPerSec / bare[i]!.requestsPerSec,
    })),
    budgets: BUDGETS,
    serverWarnings: almanac.warnings,
  }
}

/** Children and the temp tree go away on every exit path: error, Ctrl-C, SIGTERM or a hung run. */
function installCleanup(tmp: string, settings: LoadSettings): void {
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
  // Four load runs plus generation and start-up; anything far beyond that is a hang, not a slow machine.
  const limitMs = (4 * (settings.seconds + settings.warmupSeconds) + 180) * 1000
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
