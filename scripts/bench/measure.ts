// The two HTTP measurements: the real CLI (cold start, memory, fixed targets, then the varied mix)
// and the bare h3 baseline replaying Almanac's bytes, each in its own child process.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { BaselineRoute } from './baseline.ts'
import {
  firstOk,
  freePort,
  get,
  memoryOf,
  startChild,
  stopChild,
  waitForLine,
  withOutput,
  type Answer,
} from './children.ts'
import type { Corpus } from './content.ts'
import { loadTest, type LoadResult, type LoadSettings } from './load.ts'
import { measureMix, type MixRun } from './mix.ts'
import type { BenchResults } from './report.ts'

export const API = '/wp-json/calendar/events/v1'
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const START_TIMEOUT_MS = 60_000
/** The banner lines the CLI prints on start; anything else it prints is reported as a warning. */
export const SERVER_LINES = /^(Almanac is serving|\s+➜ API:)/

/** One target as the real server answered it, before and under load. */
export interface Measured {
  name: string
  path: string
  answer: Answer
  load: LoadResult
}

/** What the Almanac child yielded: cold start, memory, per-target loads, the mix and anything it complained about. */
export interface AlmanacRun {
  coldStart: BenchResults['coldStart']
  memory: BenchResults['memory']
  targets: Measured[]
  mix: MixRun
  warnings: string[]
}

/** The bare handler under the fixed targets' loads, and under the mix's paths with its representative body. */
export interface BareRun {
  targets: LoadResult[]
  mix: LoadResult
}

/** Spawns the real CLI as a user would, times its start, loads the default list and one event, then the mix. */
export async function measureAlmanac(corpus: Corpus, settings: LoadSettings, tmp: string): Promise<AlmanacRun> {
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const base = `${origin}${API}`
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
    if (single.status !== 200)
      throw new Error(`GET ${paths.single}: HTTP ${single.status} ${single.body.toString('utf8').slice(0, 200)}`)
    const targets: Measured[] = []
    for (const [name, answer] of [
      ['list', first.answer],
      ['single', single],
    ] as const) {
      const path = paths[name]
      targets.push({ name, path, answer, load: await loadTest(`${base}${path}`, settings) })
    }
    // Sampled before the mix, which builds four search indexes and so would change what this number means.
    const afterTests = await memoryOf(child.pid)
    const mix = await measureMix(origin, API, corpus, settings)
    const afterMix = await memoryOf(child.pid)
    const readyIn = /ready in (\d+) ms/.exec(serving.line)?.[1]
    return {
      coldStart: {
        servingLineMs: serving.at - child.spawnedAt,
        firstListMs: first.at - child.spawnedAt,
        firstListRequestMs: first.answer.ms,
        serverReadyMs: readyIn === undefined ? null : Number(readyIn),
        records: /\(([^)]*)\)/.exec(serving.line)?.[1] ?? serving.line,
      },
      memory: {
        afterLoadMb: afterLoad.rssMb,
        afterTestsMb: afterTests.rssMb,
        peakMb: afterTests.peakMb,
        afterMixMb: afterMix.rssMb,
        peakAfterMixMb: afterMix.peakMb,
      },
      targets,
      mix,
      warnings: child.lines.filter((line) => !SERVER_LINES.test(line)),
    }
  } catch (error) {
    throw withOutput(error, child)
  } finally {
    await stopChild(child)
  }
}

/** Replays Almanac's exact bytes from a bare h3 app in its own process, under the same loads. */
export async function measureBaseline(
  targets: Measured[],
  mix: MixRun,
  settings: LoadSettings,
  tmp: string,
): Promise<BareRun> {
  const fixed = targets.map((t) => ({ name: t.name, path: `${API}${t.path}`, answer: t.answer }))
  const loads = await withBaseline(fixed, tmp, async (origin) => {
    const results: LoadResult[] = []
    for (const route of fixed) results.push(await loadTest(`${origin}${route.path}`, settings))
    return results
  })
  // A child of its own: the mix's `/events?…` paths would otherwise hit the fixed list route and its 51 kB.
  // Every path gets the mix's representative answer, so the bare side moves the same bytes per request on average.
  const all = [{ name: 'mix', path: '/**', answer: mix.representative, probe: mix.paths[0]! }]
  const mixLoad = await withBaseline(all, tmp, (origin) => loadTest(`${origin}${mix.paths[0]}`, settings, mix.paths))
  return { targets: loads, mix: mixLoad }
}

/** A route the baseline serves: its pattern, the path that checks it (default: the pattern) and the bytes. */
interface Replay {
  name: string
  path: string
  probe?: string
  answer: Pick<Answer, 'contentType' | 'body'>
}

/** Starts a baseline child serving `replays`, checks it answers their exact bytes, runs `work`, stops it. */
async function withBaseline<T>(replays: Replay[], tmp: string, work: (origin: string) => Promise<T>): Promise<T> {
  const routes: BaselineRoute[] = []
  for (const replay of replays) {
    const bodyFile = join(tmp, `baseline-${replay.name}.body`)
    await writeFile(bodyFile, replay.answer.body)
    routes.push({ path: replay.path, contentType: replay.answer.contentType, bodyFile })
  }
  const manifest = join(tmp, `baseline-${replays.map((r) => r.name).join('-')}.json`)
  await writeFile(manifest, JSON.stringify(routes))
  const child = startChild(['--import', 'tsx', join(ROOT, 'scripts', 'bench', 'baseline.ts'), manifest], ROOT)
  try {
    const { line } = await waitForLine(child, /^baseline listening on \d+$/, START_TIMEOUT_MS)
    const origin = `http://127.0.0.1:${line.split(' ').pop()}`
    for (const replay of replays) {
      const check = await get(`${origin}${replay.probe ?? replay.path}`)
      // A baseline that answers different bytes would make the ratio meaningless.
      const same = check.body.equals(replay.answer.body) && check.contentType === replay.answer.contentType
      if (check.status !== 200 || !same) throw new Error(`baseline ${replay.path} does not replay Almanac's bytes`)
    }
    return await work(origin)
  } catch (error) {
    throw withOutput(error, child)
  } finally {
    await stopChild(child)
  }
}
