// The reads section's numbers in the shape the report prints and the JSON keeps.
import type { LoadResult } from '../common/load.ts'
import { API } from '../common/server.ts'
import type { AlmanacRun, ColdStart, Memory } from './almanac.ts'
import type { BareRun } from './bare.ts'
import type { InProcessResults } from './inprocess.ts'
import type { ReadsRun } from './measure.ts'
import type { MixResult } from './report-queries.ts'

/** One endpoint measured on Almanac and on the bare handler that returns the same bytes. */
export interface TargetResult {
  name: string
  path: string
  responseBytes: number
  contentType: string
  almanac: LoadResult
  bare: LoadResult
  /** Almanac's requests/s over the bare handler's. */
  ratio: number
}

/** The reads section's part of the results, in the order the JSON keeps it. */
export interface ReadResults {
  coldStart: ColdStart
  memory: Memory
  targets: TargetResult[]
  mix: MixResult
  inProcess: InProcessResults
}

/** The reads section's results from what it measured. */
export function readResults({ almanac, bare, inProcess }: ReadsRun): ReadResults {
  return {
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
  }
}

/** The mix for the JSON: counts and loads, not the thousands of paths or the replayed body. */
function mixResult(almanac: AlmanacRun, bare: BareRun): MixResult {
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
