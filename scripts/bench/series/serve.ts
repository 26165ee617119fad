// A tree served by the real CLI, as the reads section serves it: spawn to the first 200 of the default list, the
// varied mix (every answer captured, then loaded in turn), the mix kept running BENCH_SOAK_SECONDS in all before
// the memory sample; then the mix's limit, bare node:http replaying the same bytes.
import { join } from 'node:path'
import { ReplayBook } from '../common/capture.ts'
import { freePort, memoryOf, startChild, stopChild, waitForLine, withOutput } from '../common/children.ts'
import { firstOk } from '../common/client.ts'
import type { Corpus } from '../common/content.ts'
import { measureLimit } from '../common/limit.ts'
import type { LoadResult, LoadSettings } from '../common/load.ts'
import { measureMix, soak } from '../common/mix.ts'
import { SERVER_CORE } from '../common/pin.ts'
import { API, serveCommand, START_TIMEOUT_MS, warningsOf } from '../common/server.ts'

/** What serving one tree measured. */
export interface Served {
  /** The banner's counts of file records (a series is one event here). */
  records: string
  coldStart: { firstListMs: number; servingLineMs: number; serverReadyMs: number | null }
  mix: { paths: number; dropped: number; meanBytes: number; almanac: LoadResult; limit: LoadResult; ratio: number }
  memory: { afterStartMb: number; afterMixMb: number; soakSeconds: number; peakMb: number | null }
  /** What the server printed besides its banner (an open-ended series is a warning line each); null: not kept. */
  warnings: { lines: number; first: string | null } | null
}

/** What the CLI answered before its limit was measured. */
type Alone = Omit<Served, 'mix'> & { mix: Omit<Served['mix'], 'limit' | 'ratio'> }

/** Serves `corpus` with the CLI (cwd `tmp`), then replays its mix answers as the limit. */
export async function measureServed(corpus: Corpus, settings: LoadSettings, tmp: string): Promise<Served> {
  const book = new ReplayBook(join(tmp, `replay-${corpus.series}.json`))
  const { alone, paths } = await serveAlone(corpus, settings, tmp, book)
  const limit = (await measureLimit(book, [], paths, settings)).mix
  return { ...alone, mix: { ...alone.mix, limit, ratio: alone.mix.almanac.requestsPerSec / limit.requestsPerSec } }
}

/** The CLI's start, the mix with every answer captured into `book`, the soak and the memory; then it stops. */
async function serveAlone(corpus: Corpus, settings: LoadSettings, tmp: string, book: ReplayBook) {
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const child = startChild(serveCommand(corpus.dir, port), tmp, SERVER_CORE)
  try {
    // Side by side from the spawn, as the reads section times it: the banner waits for the watcher.
    const [serving, first] = await Promise.all([
      waitForLine(child, /^Almanac is serving/, START_TIMEOUT_MS * 2),
      firstOk(`${origin}${API}/events`, START_TIMEOUT_MS * 2),
    ])
    const afterStart = await memoryOf(child.pid)
    const mix = await measureMix(origin, API, corpus, settings, book)
    const soakSeconds = await soak(origin, mix.paths, settings)
    const afterMix = await memoryOf(child.pid)
    const readyIn = /ready in (\d+) ms/.exec(serving.line)?.[1]
    const warnings = warningsOf(child)
    const alone: Alone = {
      records: /\(([^)]*)\)/.exec(serving.line)?.[1] ?? serving.line,
      coldStart: {
        firstListMs: first.at - child.spawnedAt,
        servingLineMs: serving.at - child.spawnedAt,
        serverReadyMs: readyIn === undefined ? null : Number(readyIn),
      },
      mix: { paths: mix.paths.length, dropped: mix.dropped, meanBytes: mix.meanBytes, almanac: mix.almanac },
      memory: { afterStartMb: afterStart.rssMb, afterMixMb: afterMix.rssMb, soakSeconds, peakMb: afterMix.peakMb },
      warnings: { lines: warnings.length, first: warnings[0] ?? null },
    }
    return { alone, paths: mix.paths }
  } catch (error) {
    throw withOutput(error, child)
  } finally {
    await stopChild(child)
  }
}
