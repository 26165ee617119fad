// The reads subject's numbers in the shape the report prints and the JSON keeps.
import type { LoadResult } from '../common/load.ts'
import { API } from '../common/server.ts'
import type { ColdStart, Memory } from './almanac.ts'
import type { BigStart, LoaderShare } from './cold.ts'
import type { InProcessResults } from '../common/inprocess.ts'
import type { ReadsRun } from './measure.ts'
import type { MixRun } from '../common/mix.ts'

/** One URL measured on Almanac and on its limit (the same bytes replayed by bare node:http). */
export interface TargetResult {
  name: string
  path: string
  bytes: number
  almanac: LoadResult
  limit: LoadResult
  /** Almanac's requests/s over the limit's. */
  ratio: number
}

/** The varied mix for the JSON: counts and loads, not the thousands of paths. */
export interface MixResult extends Omit<MixRun, 'paths'> {
  paths: number
  samplePaths: string[]
  limit: LoadResult
  ratio: number
}

/** The reads subject's part of the results. */
export interface ReadResults {
  coldStart: ColdStart
  loader: LoaderShare
  bigStart: BigStart | null
  memory: Memory
  targets: TargetResult[]
  mix: MixResult
  inProcess: InProcessResults
}

/** The reads subject's results from what it measured. */
export function readResults({ almanac, limit, loader, bigStart, inProcess }: ReadsRun): ReadResults {
  const { paths, ...mix } = almanac.mix
  return {
    coldStart: almanac.coldStart,
    loader,
    bigStart: bigStart ?? null,
    memory: almanac.memory,
    targets: almanac.targets.map((t, i) => ({
      name: t.name,
      path: `${API}${t.path}`,
      bytes: t.bytes,
      almanac: t.load,
      limit: limit.targets[i]!,
      ratio: t.load.requestsPerSec / limit.targets[i]!.requestsPerSec,
    })),
    mix: {
      ...mix,
      paths: paths.length,
      samplePaths: paths.slice(0, 10),
      limit: limit.mix,
      ratio: mix.almanac.requestsPerSec / limit.mix.requestsPerSec,
    },
    inProcess,
  }
}
