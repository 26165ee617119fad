// Reads against the real CLI, pinned to the server core: its cold start (the median of a few) and memory, every
// target URL under load (each answer captured into the replay book first), the varied mix, then the mix kept running
// for a minute in all before the memory goal's sample.
import { freePort, memoryOf, startChild, stopChild, waitForLine, withOutput } from '../common/children.ts'
import { firstOk } from '../common/client.ts'
import type { Corpus } from '../common/content.ts'
import { envNumber, type LoadSettings } from '../common/load.ts'
import { startLimit, type Limit } from '../common/limit.ts'
import { loadPaired, type PairedLoad, type Side } from '../common/paired.ts'
import { SERVER_CORE } from '../common/pin.ts'
import { API, SERVER_LINES, serveCommand, START_TIMEOUT_MS } from '../common/server.ts'
import { capture, type Captured, type ReplayBook } from '../common/capture.ts'
import { captureMix, soak, type MixRun } from '../common/mix.ts'
import { readTargets, type Target } from './targets.ts'

/** Spawn to the banner and to the first 200 of the default list, and what the server says of itself. */
export interface ColdStart {
  servingLineMs: number
  /** The median of `firstListRunsMs`. */
  firstListMs: number
  /** Spawn to the first 200 of each start (BENCH_COLD_STARTS, 3 by default), the measured server's last. */
  firstListRunsMs: number[]
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

/** One target as the real server answered it, and under load beside its limit. */
export interface Measured extends Target {
  bytes: number
  load: PairedLoad
  limit: PairedLoad
}

/** What the Almanac child yielded, with its limit measured round for round beside it. */
export interface AlmanacRun {
  coldStart: ColdStart
  memory: Memory
  targets: Measured[]
  mix: MixRun & { almanac: PairedLoad; limit: PairedLoad }
  warnings: string[]
}

/**
 * Spawns the real CLI as a user would and times its start; captures every target and the mix's paths into the
 * book; starts the limit on it and loads each target and then the mix on both, round for round; then keeps the
 * mix running on Almanac for its minute before the memory sample.
 */
export async function measureAlmanac(
  corpus: Corpus,
  settings: LoadSettings,
  tmp: string,
  book: ReplayBook,
): Promise<AlmanacRun> {
  // One start on this shared machine can be a second off the next: the goal reads the median of a few. cwd is the
  // temp dir, so no almanac.config.yaml of a developer's counts.
  const earlier = await earlierStarts(corpus, tmp)
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const child = startChild(serveCommand(corpus.dir, port), tmp, SERVER_CORE)
  let limit: Limit | undefined
  try {
    // Both from the spawn, side by side: the first answer may come before the banner, which waits for the watcher.
    const [serving, first] = await Promise.all([
      waitForLine(child, /^Almanac is serving/, START_TIMEOUT_MS),
      firstOk(`${origin}${API}/events`, START_TIMEOUT_MS),
    ])
    const afterLoad = await memoryOf(child.pid)
    const targets = await readTargets(`${origin}${API}`, corpus)
    const bytes: number[] = []
    for (const target of targets) {
      const answer = ok(target, await capture(`${origin}${API}${target.path}`))
      book.add(`${API}${target.path}`, answer)
      bytes.push(answer.body.length)
    }
    const captured = await captureMix(origin, API, corpus, book)
    limit = await startLimit(book)
    const sides = (path: string): [Side, Side] => [
      { url: `${origin}${path}`, pid: child.pid },
      { url: `${limit!.origin}${path}`, pid: limit!.pid },
    ]
    const measured: Measured[] = []
    for (const [i, target] of targets.entries()) {
      const [load, replayed] = await loadPaired(...sides(`${API}${target.path}`), settings)
      measured.push({ ...target, bytes: bytes[i]!, load, limit: replayed })
    }
    const afterTests = await memoryOf(child.pid)
    const [mixLoad, mixLimit] = await loadPaired(...sides(captured.paths[0]!), settings, captured.paths)
    await limit.stop()
    const soakSeconds = await soak(origin, captured.paths, settings)
    const afterMix = await memoryOf(child.pid)
    const readyIn = /ready in (\d+) ms/.exec(serving.line)?.[1]
    const firstListRunsMs = [...earlier, first.at - child.spawnedAt]
    return {
      coldStart: {
        servingLineMs: serving.at - child.spawnedAt,
        firstListMs: median(firstListRunsMs),
        firstListRunsMs,
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
      targets: measured,
      mix: { ...captured, almanac: mixLoad, limit: mixLimit },
      warnings: child.lines.filter((line) => !SERVER_LINES.test(line)),
    }
  } catch (error) {
    throw withOutput(error, child)
  } finally {
    await limit?.stop()
    await stopChild(child)
  }
}

/** Starts before the measured one, each timed from its spawn to its first 200 and stopped then. */
async function earlierStarts(corpus: Corpus, tmp: string): Promise<number[]> {
  const times: number[] = []
  for (let i = 1; i < envNumber('BENCH_COLD_STARTS', 3); i++) {
    const port = await freePort()
    const child = startChild(serveCommand(corpus.dir, port), tmp, SERVER_CORE)
    try {
      const first = await firstOk(`http://127.0.0.1:${port}${API}/events`, START_TIMEOUT_MS)
      times.push(first.at - child.spawnedAt)
    } catch (error) {
      throw withOutput(error, child)
    } finally {
      await stopChild(child)
    }
  }
  return times
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

function ok(target: Target, answer: Captured): Captured {
  if (answer.status === 200) return answer
  throw new Error(`GET ${target.path}: HTTP ${answer.status} ${answer.body.toString('utf8').slice(0, 200)}`)
}
