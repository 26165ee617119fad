import autocannon from 'autocannon'

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

/** Loads one URL: a discarded warm-up (JIT, lazy indexes), then the measured run. */
export async function loadTest(url: string, settings: LoadSettings): Promise<LoadResult> {
  if (settings.warmupSeconds > 0) {
    await autocannon({ url, connections: settings.connections, duration: settings.warmupSeconds })
  }
  const result = await autocannon({ url, connections: settings.connections, duration: settings.seconds })
  return {
    url,
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

/** Reads a positive number from the environment, so quick runs need no code change. */
export function envNumber(name: string, fallback: number): number {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`)
  return value
}
