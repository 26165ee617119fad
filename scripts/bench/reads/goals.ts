// The reads subject's goals: each repeated URL and the varied mix against their limits, query times in-process,
// cold starts and memory.
import { goal, type Goal } from '../common/goals.ts'
import { hasWrk } from '../common/wrk.ts'
import { int, mb, ms, ms3, seconds } from '../common/format.ts'
import { READ_GOALS as G } from './budgets.ts'
import type { ReadResults } from './results.ts'

/** The goals in the summary's order. */
export function readGoals(r: ReadResults, events: number): Goal[] {
  const ratio = (x: {
    ratio: number
    cpuRatio: number | null
    almanac: { requestsPerSec: number }
    limit: { requestsPerSec: number }
  }) =>
    `${x.ratio.toFixed(2)} (${int(x.almanac.requestsPerSec)} of ${int(x.limit.requestsPerSec)} req/s` +
    `${x.cpuRatio === null ? '' : `; by CPU per request ${x.cpuRatio.toFixed(2)}`})`
  const cold = r.inProcess.queries.filter((q) => !q.name.startsWith('search'))
  const search = r.inProcess.queries.filter((q) => q.name.startsWith('search'))
  const worst = (qs: typeof cold) => Math.max(...qs.map((q) => q.cold.p50Ms))
  const big = r.bigStart
  // A ratio is judged only where wrk loaded both sides: autocannon's own rate is below the limit's (in one run it
  // held the limit of a 62 KB list at ~7,000 req/s, a fifth of what wrk drives), so its ratios passed goals unmet.
  const judged = (text: string, x: Parameters<typeof ratio>[0], target: number): Goal =>
    hasWrk()
      ? goal(text, ratio(x), x.ratio >= target)
      : { goal: text, measured: `${ratio(x)}, not judged: autocannon paces both sides (apt-get install wrk)`, ok: null }
  return [
    ...r.targets.map((t) => judged(`${t.name}: >= ${G.ratio} of the limit`, t, G.ratio)),
    judged(`varied queries: >= ${G.mixRatio} of the limit`, r.mix, G.mixRatio),
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
