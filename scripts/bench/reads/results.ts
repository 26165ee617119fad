// The reads subject's numbers in the shape the report prints and the JSON keeps.
import type { PairedLoad } from '../common/paired.ts'
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
  almanac: PairedLoad
  limit: PairedLoad
  /** Almanac's requests/s over the limit's, measured round for round. */
  ratio: number
  /** The limit's CPU per request over Almanac's: the ratio as the server's own time tells it (null without /proc). */
  cpuRatio: number | null
}

/** The varied mix for the JSON: counts and loads, not the thousands of paths. */
export interface MixResult extends Omit<MixRun, 'paths' | 'almanac'> {
  paths: number
  samplePaths: string[]
  almanac: PairedLoad
  limit: PairedLoad
  ratio: number
  cpuRatio: number | null
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
export function readResults({ almanac, loader, bigStart, inProcess }: ReadsRun): ReadResults {
  const { paths, ...mix } = almanac.mix
  return {
    coldStart: almanac.coldStart,
    loader,
    bigStart: bigStart ?? null,
    memory: almanac.memory,
    targets: almanac.targets.map((t) => ({
      name: t.name,
      path: `${API}${t.path}`,
      bytes: t.bytes,
      almanac: t.load,
      limit: t.limit,
      ...ratios(t.load, t.limit),
    })),
    mix: {
      ...mix,
      paths: paths.length,
      samplePaths: paths.slice(0, 10),
      ...ratios(mix.almanac, mix.limit),
    },
    inProcess,
  }
}

/** Almanac's rate over the limit's, and the limit's CPU per request over Almanac's (null without /proc). */
function ratios(almanac: PairedLoad, limit: PairedLoad): { ratio: number; cpuRatio: number | null } {
  const cpu = almanac.cpuUsPerRequest && limit.cpuUsPerRequest ? limit.cpuUsPerRequest / almanac.cpuUsPerRequest : null
  return { ratio: almanac.requestsPerSec / limit.requestsPerSec, cpuRatio: cpu }
}
