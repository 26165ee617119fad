// The reads subject in order: the real CLI (capturing its answers, then loaded beside its limit replaying them),
// then the loader's share and a start over a bigger tree, then listEvents in-process (before any write changes
// the tree).
import { join } from 'node:path'
import type { Corpus } from '../common/content.ts'
import { envNumber, type LoadSettings } from '../common/load.ts'
import { measureAlmanac, type AlmanacRun } from './almanac.ts'
import { ReplayBook } from '../common/capture.ts'
import { measureBigStart, measureLoader, type BigStart, type LoaderShare } from './cold.ts'
import { measureInProcess, type InProcessResults } from '../common/inprocess.ts'

/** Everything the reads subject measured, before it is shaped for the report. */
export interface ReadsRun {
  almanac: AlmanacRun
  loader: LoaderShare
  bigStart: BigStart | undefined
  inProcess: InProcessResults
}

/** Runs the measurements; BENCH_QUERY_RUNS and BENCH_QUERY_ROUNDS size the in-process one. */
export async function measureReads(
  corpus: Corpus,
  settings: LoadSettings,
  tmp: string,
  log: (message: string) => void,
): Promise<ReadsRun> {
  if (!corpus.sampleEventId) throw new Error('the generated content has no upcoming published event to request')
  log('measuring Almanac (cold start; each URL, then the varied mix, round for round beside its limit) …')
  const book = new ReplayBook(join(tmp, 'replay.json'))
  const almanac = await measureAlmanac(corpus, settings, tmp, book)
  log('timing the loader, then a cold start over a bigger tree …')
  const loader = measureLoader()
  const bigStart = await measureBigStart(tmp)
  log('timing listEvents in-process …')
  const runs = envNumber('BENCH_QUERY_RUNS', 200)
  const inProcess = await measureInProcess(corpus, runs, Math.max(1, envNumber('BENCH_QUERY_ROUNDS', 3)))
  return { almanac, loader, bigStart, inProcess }
}
