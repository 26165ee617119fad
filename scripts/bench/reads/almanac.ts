// Reads against the real CLI: its cold start and memory, then the default list and one event under load,
// then the varied mix, each measured in its own child process.
import { join } from 'node:path'
import { freePort, memoryOf, startChild, stopChild, waitForLine, withOutput } from '../common/children.ts'
import { firstOk, get, type Answer } from '../common/client.ts'
import type { Corpus } from '../common/content.ts'
import { loadTest, type LoadResult, type LoadSettings } from '../common/load.ts'
import { ROOT } from '../common/paths.ts'
import { API, SERVER_LINES, START_TIMEOUT_MS } from '../common/server.ts'
import { measureMix, type MixRun } from './mix.ts'

/** Spawn to the banner and to the first 200 of the default list, and what the server says of itself. */
export interface ColdStart {
  servingLineMs: number
  firstListMs: number
  firstListRequestMs: number
  serverReadyMs: number | null
  records: string
}

/** Resident memory at points of the run, and the peaks (VmHWM) where the system reports them. */
export interface Memory {
  afterLoadMb: number
  afterTestsMb: number
  peakMb: number | null
  afterMixMb: number
  peakAfterMixMb: number | null
}

/** One target as the real server answered it, before and under load. */
export interface Measured {
  name: string
  path: string
  answer: Answer
  load: LoadResult
}

/** What the Almanac child yielded: cold start, memory, per-target loads, the mix and anything it complained about. */
export interface AlmanacRun {
  coldStart: ColdStart
  memory: Memory
  targets: Measured[]
  mix: MixRun
  warnings: string[]
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
