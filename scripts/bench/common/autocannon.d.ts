// autocannon ships no types and @types/autocannon is not a dependency: declare only what the bench reads.
declare module 'autocannon' {
  interface Options {
    url: string
    connections?: number
    duration?: number
    pipelining?: number
    timeout?: number
    headers?: Record<string, string>
    /** Each connection loops over these; `setupRequest` may rewrite every request before it is sent. */
    requests?: RequestSpec[]
  }

  /** The raw request autocannon is about to serialize; only the fields the bench touches. */
  interface RawRequest {
    method: string
    path: string
    headers: Record<string, string>
  }

  interface RequestSpec {
    setupRequest?: (request: RawRequest, context: Record<string, unknown>) => RawRequest
  }

  interface Histogram {
    average: number
    mean: number
    stddev: number
    min: number
    max: number
    p50: number
    p90: number
    p99: number
    total: number
  }

  interface Result {
    url: string
    duration: number
    errors: number
    timeouts: number
    non2xx: number
    '2xx': number
    latency: Histogram
    requests: Histogram & { sent: number }
    throughput: Histogram
  }

  /** Runs one load test; resolves with the aggregate when no callback is given. */
  function autocannon(options: Options): Promise<Result>

  export default autocannon
  export type { Options, Result, Histogram, RawRequest, RequestSpec }
}
