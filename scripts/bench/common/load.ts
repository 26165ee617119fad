// Load runs, as the issue measured them: 32 connections, a warm-up, then 3 rounds of 2 s, the best round kept.
// wrk (1 thread) when it is on PATH, else autocannon in a child process; either way on the load core.
import { runCannon } from './cannon.ts'
import { hasWrk, runWrk } from './wrk.ts'

/** How hard and how long each target is loaded; the same settings serve Almanac and its limit. */
export interface LoadSettings {
  connections: number
  seconds: number
  warmupSeconds: number
  rounds: number
}

/** One measured round as the load generator reported it. */
export interface RoundResult {
  requestsPerSec: number
  latencyP50Ms: number
  latencyP99Ms: number
  latencyMaxMs: number
  requests: number
  bytesPerSec: number
  errors: number
  timeouts: number
  non2xx: number
}

/** The round the report keeps (the best: noise on a shared machine only slows a round), and every round's req/s. */
export interface LoadResult extends RoundResult {
  url: string
  tool: string
  roundsPerSec: number[]
}

/** What one load generator is asked to do: a URL, or a cycle through `paths` on its origin. */
export interface LoadJob {
  url: string
  paths?: readonly string[]
  settings: LoadSettings
}

/** The load generator this run uses: wrk when it is on PATH, else autocannon. */
export function loadTool(): string {
  return hasWrk() ? 'wrk (1 thread)' : 'autocannon (child process)'
}

/**
 * Loads one URL: a discarded warm-up, then `rounds` measured rounds; the best round is kept. With `paths`, every
 * request asks for the next path in turn (one cursor for all connections), so none repeats until all have run.
 */
export async function loadTest(url: string, settings: LoadSettings, paths?: readonly string[]): Promise<LoadResult> {
  const job: LoadJob = { url, settings, ...(paths && paths.length > 0 ? { paths } : {}) }
  const rounds = hasWrk() ? await runWrk(job) : await runCannon(job)
  const best = rounds.reduce((a, b) => (b.requestsPerSec > a.requestsPerSec ? b : a))
  return {
    ...best,
    url: paths ? `${new URL(url).origin} (${paths.length} paths in turn)` : url,
    tool: loadTool(),
    roundsPerSec: rounds.map((r) => r.requestsPerSec),
  }
}

/** Reads a non-negative number from the environment, so quick runs need no code change. */
export function envNumber(name: string, fallback: number): number {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`)
  return value
}

/** BENCH_CONNECTIONS (32), BENCH_SECONDS (2 per round), BENCH_ROUNDS (3), BENCH_WARMUP (1). */
export function loadSettings(): LoadSettings {
  return {
    connections: Math.max(1, envNumber('BENCH_CONNECTIONS', 32)),
    seconds: Math.max(1, envNumber('BENCH_SECONDS', 2)),
    warmupSeconds: envNumber('BENCH_WARMUP', 1),
    rounds: Math.max(1, envNumber('BENCH_ROUNDS', 3)),
  }
}

/** How long one load test takes, warm-up included, in seconds: for the runs' hang limits. */
export function loadSeconds(s: LoadSettings): number {
  return s.warmupSeconds + s.rounds * s.seconds
}

/** One line naming the generator and the settings, for the report. */
export function describeLoad(s: LoadSettings): string {
  return (
    `${loadTool()}, ${s.connections} connections, ${s.warmupSeconds} s warm-up then ${s.rounds} x ${s.seconds} s, ` +
    'best round kept'
  )
}
