// The bare h3 baseline: Almanac's exact bytes replayed from a bare h3 app in a child process of its
// own (baseline.ts), under the same loads; the ceiling Almanac's throughput is compared to.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startChild, stopChild, waitForLine, withOutput } from '../common/children.ts'
import { get, type Answer } from '../common/client.ts'
import { loadTest, type LoadResult, type LoadSettings } from '../common/load.ts'
import { ROOT } from '../common/paths.ts'
import { API, START_TIMEOUT_MS } from '../common/server.ts'
import type { Measured } from './almanac.ts'
import type { BaselineRoute } from './baseline.ts'
import type { MixRun } from './mix.ts'

const BASELINE = fileURLToPath(new URL('./baseline.ts', import.meta.url))

/** The bare handler under the fixed targets' loads, and under the mix's paths with its representative body. */
export interface BareRun {
  targets: LoadResult[]
  mix: LoadResult
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
  const child = startChild(['--import', 'tsx', BASELINE, manifest], ROOT)
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
