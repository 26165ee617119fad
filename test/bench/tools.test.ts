import { describe, expect, it } from 'vitest'
import { API } from '../../scripts/bench/common/server.ts'
import { parseWrk } from '../../scripts/bench/common/wrk.ts'
import { mixPaths } from '../../scripts/bench/common/mix-paths.ts'
import type { Corpus } from '../../scripts/bench/common/content.ts'

const WRK = `Running 2s test @ http://127.0.0.1:3000/wp-json/calendar/events/v1/events
  1 threads and 32 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     3.85ms    1.12ms  21.40ms   91.00%
    Req/Sec     8.35k   412.00     8.80k    85.00%
  Latency Distribution
     50%  373.00us
     75%    3.90ms
     90%    4.60ms
     99%    1.20s
  16704 requests in 2.00s, 1.01GB read
  Non-2xx or 3xx responses: 3
  Socket errors: connect 1, read 2, write 0, timeout 4
Requests/sec:   8350.75
Transfer/sec:    516.50MB
`

describe('the bench load generator', () => {
  it("reads wrk's report: req/s, percentiles in their units, bytes/s, failures", () => {
    expect(parseWrk(WRK)).toEqual({
      requestsPerSec: 8350.75,
      latencyP50Ms: 0.373,
      latencyP99Ms: 1200,
      latencyMaxMs: 21.4,
      requests: 16704,
      bytesPerSec: 516.5 * 1024 ** 2,
      errors: 3,
      timeouts: 4,
      non2xx: 3,
    })
  })
})

describe('the varied mix', () => {
  const DAY = 86_400_000
  const corpus = { span: { first: Date.UTC(2026, 0, 1), last: Date.UTC(2026, 0, 1) + 700 * DAY } } as Corpus
  const paths = mixPaths(corpus, API, 3000)

  it('is thousands of distinct event-list queries, each a date range and a page size', () => {
    expect(paths).toHaveLength(3000)
    expect(new Set(paths.map((p) => p.path)).size).toBe(3000)
    for (const { path } of paths) {
      const q = new URL(path, 'http://x').searchParams
      expect(path.startsWith(`${API}/events?`)).toBe(true)
      expect([q.get('start_date'), q.get('end_date'), q.get('per_page')].every(Boolean)).toBe(true)
    }
  })

  it('puts a search word in a third of them and a category in another third', () => {
    const has = (key: string) => paths.filter((p) => new URL(p.path, 'http://x').searchParams.has(key)).length
    expect(has('search')).toBe(1000)
    expect(has('categories')).toBe(1000)
  })
})
