// Child process: one load job with autocannon (warm-up, then the rounds), its rounds printed as one JSON line.
// Usage: node --import tsx scripts/bench/common/cannon-child.ts <job.json>
import { readFileSync } from 'node:fs'
import autocannon, { type Options, type RawRequest } from 'autocannon'
import type { LoadJob, RoundResult } from './load.ts'

/** A setupRequest that sets the path of each request to the next of `paths`, wrapping at the end. */
function cycle(paths: readonly string[]) {
  let next = 0
  return (request: RawRequest): RawRequest => {
    request.path = paths[next]!
    next = (next + 1) % paths.length
    return request
  }
}

async function round(options: Options, seconds: number): Promise<RoundResult> {
  const r = await autocannon({ ...options, duration: seconds })
  return {
    requestsPerSec: r.requests.average,
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    latencyMaxMs: r.latency.max,
    requests: r['2xx'] + r.non2xx,
    bytesPerSec: r.throughput.average,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
  }
}

const job = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as LoadJob
const options: Options = { url: job.url, connections: job.settings.connections }
if (job.paths) options.requests = [{ setupRequest: cycle(job.paths) }]
if (job.settings.warmupSeconds > 0) await round(options, job.settings.warmupSeconds)
const rounds: RoundResult[] = []
for (let i = 0; i < job.settings.rounds; i++) rounds.push(await round(options, job.settings.seconds))
console.log(JSON.stringify(rounds))
