// Two servers loaded round for round with the same job, so that the ratio of their rates is taken under one state
// of a shared machine. Run one after the other, minutes apart, the same replayed bytes measured 15,827 req/s in one
// run and 24,943 in the next, and a goal passed or failed with the hour. Each side's CPU per request is read from
// /proc as well: a server pinned to one core and kept busy spends its time on requests or loses it to the machine,
// and CPU time counts only the first.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { loadTest, type LoadResult, type LoadSettings } from './load.ts'

/** A server under load: where to send the job, and its process (node's own pid, as `startChild` gives it). */
export interface Side {
  url: string
  pid: number
}

/** A side's load, as `loadTest` reports it, with its CPU per request over the measured rounds. */
export interface PairedLoad extends LoadResult {
  /** CPU time of the server (every thread) per request over all measured rounds; null without /proc. */
  cpuUsPerRequest: number | null
}

/**
 * Loads `a` and `b` in turn: a warm-up each, then `settings.rounds` rounds each, alternating and in mirrored order
 * (a b, b a, a b …) so that neither side always runs right after the other's load. As `loadTest`, each side's best
 * round is kept; `paths` makes every request ask for the next of them on that side's origin.
 */
export async function loadPaired(
  a: Side,
  b: Side,
  settings: LoadSettings,
  paths?: readonly string[],
): Promise<[PairedLoad, PairedLoad]> {
  const sides = [a, b].map((side) => ({ side, rounds: [] as LoadResult[], cpuUs: 0 as number | null }))
  const one = (s: LoadSettings) => ({ ...s, rounds: 1, warmupSeconds: 0 })
  for (const { side } of sides)
    if (settings.warmupSeconds > 0)
      await loadTest(side.url, { ...one(settings), seconds: settings.warmupSeconds }, paths)
  for (let round = 0; round < settings.rounds; round++) {
    for (const entry of round % 2 === 0 ? sides : [...sides].reverse()) {
      const before = cpuUs(entry.side.pid)
      entry.rounds.push(await loadTest(entry.side.url, one(settings), paths))
      const after = cpuUs(entry.side.pid)
      entry.cpuUs = before === null || after === null || entry.cpuUs === null ? null : entry.cpuUs + after - before
    }
  }
  const [first, second] = sides.map(({ rounds, cpuUs }) => {
    const best = rounds.reduce((x, y) => (y.requestsPerSec > x.requestsPerSec ? y : x))
    const requests = rounds.reduce((sum, r) => sum + r.requests, 0)
    return {
      ...best,
      roundsPerSec: rounds.map((r) => r.requestsPerSec),
      cpuUsPerRequest: cpuUs === null || !(requests > 0) ? null : cpuUs / requests,
    }
  })
  return [first!, second!]
}

let ticksPerSecond: number | undefined

/** The CPU time a process has used (user and system, every thread) in microseconds; null where /proc is not. */
export function cpuUs(pid: number): number | null {
  let stat: string
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return null
  }
  // The command name is in parentheses and may hold spaces: the fields are counted after its closing one.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  ticksPerSecond ??= clockTicks()
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / ticksPerSecond
}

/** The kernel's clock ticks per second, as `getconf CLK_TCK` tells (100 on Linux when it cannot). */
function clockTicks(): number {
  try {
    const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim())
    return Number.isFinite(ticks) && ticks > 0 ? ticks : 100
  } catch {
    return 100
  }
}
