// The reads subject's goals: each repeated URL and the varied mix against their limits, query times in-process,
// cold starts and memory.
import { goal, type Goal } from '../common/goals.ts'
import { int, mb, ms, ms3, seconds } from '../common/format.ts'
import { READ_GOALS as G } from './budgets.ts'
import type { ReadResults } from './results.ts'

/** The goals in the summary's order. */
export function readGoals(r: ReadResults, events: number): Goal[] {
  const ratio = (x: { ratio: number; almanac: { requestsPerSec: number }; limit: { requestsPerSec: number } }) =>
    `${x.ratio.toFixed(2)} (${int(x.almanac.requestsPerSec)} of ${int(x.limit.requestsPerSec)} req/s)`
  const cold = r.inProcess.queries.filter((q) => !q.name.startsWith('search'))
  const search = r.inProcess.queries.filter((q) => q.name.startsWith('search'))
  const worst = (qs: typeof cold) => Math.max(...qs.map((q) => q.cold.p50Ms))
  const big = r.bigStart
  return [
    ...r.targets.map((t) => goal(`${t.name}: >= ${G.ratio} of the limit`, ratio(t), t.ratio >= G.ratio)),
    goal(`varied queries: >= ${G.mixRatio} of the limit`, ratio(r.mix), r.mix.ratio >= G.mixRatio),
    goal(
      `in-process cold query p50 <= ${ms3(G.coldQueryP50Ms)}`,
      `${ms3(worst(cold))} (slowest of ${cold.map((q) => q.name).join(', ')})`,
      worst(cold) <= G.coldQueryP50Ms,
    ),
    goal(
      `in-process cold search p50 <= ${ms3(G.coldSearchP50Ms)}`,
      ms3(worst(search)),
      worst(search) <= G.coldSearchP50Ms,
    ),
    goal(
      `cold start (spawn -> first 200) <= ${seconds(G.start10kMs)} at 10k events`,
      `${seconds(r.coldStart.firstListMs)} at ${int(events)} events; ` +
        (r.loader.cliUsesTsx
          ? `loader (tsx) ${ms(r.loader.loaderMs)} of it`
          : `compiled lib/, no loader (tsx would add ${ms(r.loader.loaderMs)})`),
      r.coldStart.firstListMs <= G.start10kMs,
    ),
    goal(
      `cold start <= ${seconds(G.start40kMs)} at 40k events`,
      big ? `${seconds(big.firstListMs)} at ${int(big.events)} events` : undefined,
      big !== null && big.firstListMs <= G.start40kMs,
    ),
    goal(
      `RSS <= ${mb(G.rssMb)} after the varied mix ran a minute`,
      `${mb(r.memory.afterMixMb)} after ${r.memory.soakSeconds} s of it`,
      r.memory.afterMixMb <= G.rssMb,
    ),
  ]
}
