// autocannon runs (one URL, or many paths in turn), their settings, and numbers read from the environment.
import autocannon, { type Options, type RawRequest } from 'autocannon'

/** How hard and how long each target is loaded; the same settings serve Almanac and the baseline. */
export interface LoadSettings {
  connections: number
  seconds: number
  warmupSeconds: number
}

/** The numbers the report keeps from one autocannon run. */
export interface LoadResult {
  url: string
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

/**
 * Loads one URL: a discarded warm-up (JIT, lazy indexes), then the measured run. With `paths`, every
 * request asks for the next path in turn (all connections share one cursor), so none repeats until all have run.
 */
export async function loadTest(url: string, settings: LoadSettings, paths?: readonly string[]): Promise<LoadResult> {
  const options: Options = { url, connections: settings.connections }
  if (paths && paths.length > 0) options.requests = [{ setupRequest: cycle(paths) }]
  if (settings.warmupSeconds > 0) await autocannon({ ...options, duration: settings.warmupSeconds })
  const result = await autocannon({ ...options, duration: settings.seconds })
  return {
    url: paths ? `${new URL(url).origin} (${paths.length} paths in turn)` : url,
    requestsPerSec: result.requests.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    latencyMaxMs: result.latency.max,
    requests: result['2xx'] + result.non2xx,
    bytesPerSec: result.throughput.average,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
  }
}

/** A setupRequest that sets the path of each request to the next of `paths`, wrapping at the end. */
function cycle(paths: readonly string[]) {
  let next = 0
  return (request: RawRequest): RawRequest => {
    request.path = paths[next]!
    next = (next + 1) % paths.length
    return request
  }
}

/** Reads a positive number from the environment, so quick runs need no code change. */
export function envNumber(name: string, fallback: number): number {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`)
  return value
}

/** How hard each target is loaded: BENCH_CONNECTIONS (10), BENCH_SECONDS (10), BENCH_WARMUP (1). */
export function loadSettings(): LoadSettings {
  return {
    connections: envNumber('BENCH_CONNECTIONS', 10),
    seconds: envNumber('BENCH_SECONDS', 10),
    warmupSeconds: envNumber('BENCH_WARMUP', 1),
  }
}
