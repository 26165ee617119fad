// The reads section in the order it always ran: the real CLI, then the bare baseline replaying its bytes,
// then listEvents in-process (before any write changes the tree, so the queries see the generated corpus).
import type { Corpus } from '../common/content.ts'
import { envNumber, type LoadSettings } from '../common/load.ts'
import { measureAlmanac, type AlmanacRun } from './almanac.ts'
import { measureBaseline, type BareRun } from './bare.ts'
import { measureInProcess, type InProcessResults } from './inprocess.ts'

/** Everything the reads section measured, before it is shaped for the report. */
export interface ReadsRun {
  almanac: AlmanacRun
  bare: BareRun
  inProcess: InProcessResults
}

/** Runs the three measurements; BENCH_QUERY_RUNS and BENCH_QUERY_ROUNDS size the in-process one. */
export async function measureReads(
  corpus: Corpus,
  settings: LoadSettings,
  tmp: string,
  log: (message: string) => void,
): Promise<ReadsRun> {
  if (!corpus.sampleEventId) throw new Error('the generated content has no upcoming published event to request')
  log(`measuring Almanac (cold start, then ${settings.seconds} s per target, then the varied mix) …`)
  const almanac = await measureAlmanac(corpus, settings, tmp)
  log('measuring the bare h3 baseline …')
  const bare = await measureBaseline(almanac.targets, almanac.mix, settings, tmp)
  log('timing listEvents in-process …')
  const inProcess = await measureInProcess(
    corpus,
    envNumber('BENCH_QUERY_RUNS', 200),
    Math.max(1, envNumber('BENCH_QUERY_ROUNDS', 3)),
  )
  return { almanac, bare, inProcess }
}
