// The small HTTP client the sections drive the servers with, one request at a time (a GET that retries while a
// server starts, JSON writes), and the latency summaries they report.
import { request } from 'node:http'

/** One HTTP answer, with the body kept as raw bytes so the baseline can replay them exactly. */
export interface Answer {
  status: number
  contentType: string
  body: Buffer
  ms: number
}

/** p50, p99 and max of a set of wall times, in ms, with how many there were. */
export interface Latency {
  count: number
  p50Ms: number
  p99Ms: number
  maxMs: number
}

/** The `Authorization` header of a Basic login. */
export function basicAuth(login: string, password: string): string {
  return `Basic ${Buffer.from(`${login}:${password}`, 'utf8').toString('base64')}`
}

/**
 * One request with an optional JSON body, timed from before it is sent to the last byte of the answer.
 * No keep-alive: no idle socket lingers into a load test, and every write pays the same connect.
 */
export function send(
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
  timeoutMs = 30_000,
): Promise<Answer> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body), 'utf8')
  const all: Record<string, string | number> = { ...headers }
  if (payload) Object.assign(all, { 'content-type': 'application/json', 'content-length': payload.length })
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent: false, timeout: timeoutMs, headers: all }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type'] ?? ''),
          body: Buffer.concat(chunks),
          ms: performance.now() - started,
        }),
      )
      res.on('error', reject)
    })
    req.on('timeout', () => req.destroy(new Error(`${method} ${url} timed out`)))
    req.on('error', reject)
    req.end(payload)
  })
}

/** The `title` of an event answer (the API returns it as plain text); undefined when the answer is not an event. */
export function titleOf(answer: Answer): string | undefined {
  if (answer.status !== 200) return undefined
  const title = (JSON.parse(answer.body.toString('utf8')) as { title?: unknown }).title
  return typeof title === 'string' ? title : undefined
}

/** Nearest-rank percentiles: no interpolation, so with under 100 samples p99 is honestly the max. */
export function latency(times: readonly number[]): Latency {
  const sorted = [...times].sort((a, b) => a - b)
  const rank = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? NaN
  return { count: sorted.length, p50Ms: rank(0.5), p99Ms: rank(0.99), maxMs: sorted[sorted.length - 1] ?? NaN }
}

/** Resolves after `ms`; the polling loops' pause. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** Status and the start of the body, for a failure message that says what the server said. */
export function describe(answer: Answer): string {
  return `HTTP ${answer.status} ${answer.body.toString('utf8').slice(0, 200)}`
}

/** One GET without keep-alive, so no idle socket lingers into the load test. */
export function get(url: string, timeoutMs = 30_000): Promise<Answer> {
  return send('GET', url, undefined, {}, timeoutMs)
}

/** Retries a GET until the server answers; refusals are expected while it starts, a non-200 answer is a failure. */
export async function firstOk(url: string, timeoutMs: number): Promise<{ answer: Answer; at: number }> {
  const deadline = performance.now() + timeoutMs
  let last = 'no attempt'
  while (performance.now() < deadline) {
    let answer: Answer
    try {
      answer = await get(url)
    } catch (error) {
      last = (error as Error).message
      await new Promise((r) => setTimeout(r, 10))
      continue
    }
    if (answer.status === 200) return { answer, at: performance.now() }
    throw new Error(`GET ${url}: HTTP ${answer.status} ${answer.body.toString('utf8').slice(0, 300)}`)
  }
  throw new Error(`GET ${url} got no answer within ${timeoutMs} ms (last: ${last})`)
}
