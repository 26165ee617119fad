// Reads against the real CLI, pinned to the server core: its cold start and memory, every target URL under load
// (each answer captured into the replay book first), the varied mix, then the mix kept running for a minute in
// all before the memory goal's sample.
import { join } from 'node:path'
import { freePort, memoryOf, startChild, stopChild, waitForLine, withOutput } from '../common/children.ts'
import { firstOk } from '../common/client.ts'
import type { Corpus } from '../common/content.ts'
import { loadTest, type LoadResult, type LoadSettings } from '../common/load.ts'
import { ROOT } from '../common/paths.ts'
import { SERVER_CORE } from '../common/pin.ts'
import { API, SERVER_LINES, START_TIMEOUT_MS } from '../common/server.ts'
import { capture, type Captured, type ReplayBook } from '../common/capture.ts'
import { measureMix, soak, type MixRun } from '../common/mix.ts'
import { readTargets, type Target } from './targets.ts'

/** Spawn to the banner and to the first 200 of the default list, and what the server says of itself. */
export interface ColdStart {
  servingLineMs: number
  firstListMs: number
  firstListRequestMs: number
  serverReadyMs: number | null
  records: string
}

/** Resident memory after the start, after the targets, and after the varied mix ran for `soakSeconds` in all. */
export interface Memory {
  afterLoadMb: number
  afterTestsMb: number
  afterMixMb: number
  soakSeconds: number
  peakMb: number | null
}

/** One target as the real server answered it, and under load. */
export interface Measured extends Target {
  bytes: number
  load: LoadResult
}

/** What the Almanac child yielded. */
export interface AlmanacRun {
  coldStart: ColdStart
  memory: Memory
  targets: Measured[]
  mix: MixRun
  warnings: string[]
}

/** Spawns the real CLI as a user would, times its start, loads every target, then the mix and its minute. */
export async function measureAlmanac(
  corpus: Corpus,
  settings: LoadSettings,
  tmp: string,
  book: ReplayBook,
): Promise<AlmanacRun> {
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const args = ['serve', '--content', corpus.dir, '--port', String(port), '--host', '127.0.0.1', '--quiet']
  // cwd is the temp dir so a developer's almanac.config.yaml cannot change what is measured.
  const child = startChild([join(ROOT, 'bin', 'almanac.js'), ...args], tmp, SERVER_CORE)
  try {
    // Both from the spawn, side by side: the first answer may come before the banner, which waits for the watcher.
    const [serving, first] = await Promise.all([
      waitForLine(child, /^Almanac is serving/, START_TIMEOUT_MS),
      firstOk(`${origin}${API}/events`, START_TIMEOUT_MS),
    ])
    const afterLoad = await memoryOf(child.pid)
    const targets: Measured[] = []
    for (const target of await readTargets(`${origin}${API}`, corpus)) {
      const answer = ok(target, await capture(`${origin}${API}${target.path}`))
      book.add(`${API}${target.path}`, answer)
      const load = await loadTest(`${origin}${API}${target.path}`, settings)
      targets.push({ ...target, bytes: answer.body.length, load })
    }
    const afterTests = await memoryOf(child.pid)
    const mix = await measureMix(origin, API, corpus, settings, book)
    const soakSeconds = await soak(origin, mix.paths, settings)
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
        afterMixMb: afterMix.rssMb,
        soakSeconds,
        peakMb: afterMix.peakMb,
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

function ok(target: Target, answer: Captured): Captured {
  if (answer.status === 200) return answer
  throw new Error(`GET ${target.path}: HTTP ${answer.status} ${answer.body.toString('utf8').slice(0, 200)}`)
}
