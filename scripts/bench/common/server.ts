// The real CLI as the write and watch sections run it: a site with writers (a users file), serving a
// generated tree it watches; and the disjoint sets of events each section changes.
import { join } from 'node:path'
import { openUsers } from '../../../src/auth/users.ts'
import { freePort, startChild, stopChild, waitForLine, withOutput, type Child } from './children.ts'
import { basicAuth, firstOk } from './client.ts'
import type { Corpus } from './content.ts'
import { type Settled, waitForIdle } from './idle.ts'
import { envNumber } from './load.ts'
import { SERVER_CORE } from './pin.ts'
import { ROOT } from './paths.ts'
import { seeded } from './words.ts'

export const API = '/wp-json/calendar/events/v1'
/**
 * The banner lines the CLI prints on start; anything else it prints is reported as a warning. Servers run with
 * --quiet: no request log, so thousands of lines a second neither cost the server nor fill the bench's memory.
 */
export const SERVER_LINES = /^(Almanac is serving|\s+➜ (API|Config|Listening):)/
export const START_TIMEOUT_MS = 60_000

/** The running server the write and live sections talk to. */
export interface Server {
  pid: number
  origin: string
  /** Origin and API root: `${base}/events`. */
  base: string
  /** Headers of the benchmark's administrator. */
  auth: Record<string, string>
  /** The content folder it serves and watches. */
  dir: string
}

/** An event the generator wrote: its id and the stem of its files (`events/<stem>.en.md` is its source). */
export interface KnownEvent {
  id: number
  stem: string
}

const LOGIN = 'bench'
const PASSWORD = 'bench-password-123'

/** The longest wait for the server to go quiet before a step (after writes, edits or a checkout): BENCH_SETTLE_SECONDS. */
export function settleSeconds(): number {
  return envNumber('BENCH_SETTLE_SECONDS', 30)
}

/** Waits for the server to go quiet, up to `seconds`: called before each step, so none is charged for the last one's work. */
export function settler(server: Server, seconds: number): () => Promise<Settled> {
  return () => waitForIdle(server.pid, seconds * 1000)
}

/** The real CLI serving `content` on loopback at `port`, quietly, with `extra` options: every bench server's command. */
export function serveCommand(content: string, port: number, extra: readonly string[] = []): string[] {
  const cli = join(ROOT, 'bin', 'almanac.js')
  return [cli, 'serve', '--content', content, '--port', String(port), '--host', '127.0.0.1', ...extra, '--quiet']
}

/** A users file made by the real code, then the CLI on it, started as `measureAlmanac` starts it. */
export async function startServer(corpus: Corpus, tmp: string): Promise<{ child: Child; server: Server }> {
  const users = join(tmp, 'users.yaml')
  // Outside the content folder, as a real site keeps it: the watcher must not see it.
  openUsers(users).add(LOGIN, 'administrator', PASSWORD)
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const child = startChild(serveCommand(corpus.dir, port, ['--users', users]), tmp, SERVER_CORE)
  try {
    await waitForLine(child, /^Almanac is serving/, START_TIMEOUT_MS)
    await firstOk(`${origin}${API}/events`, START_TIMEOUT_MS)
  } catch (error) {
    await stopChild(child)
    throw withOutput(error, child)
  }
  const auth = { authorization: basicAuth(LOGIN, PASSWORD) }
  return { child, server: { pid: child.pid, origin, base: `${origin}${API}`, auth, dir: corpus.dir } }
}

/** Starts the server, runs `work` on it, stops it; on failure the error carries the server's last lines. */
export async function withServer<T>(
  corpus: Corpus,
  tmp: string,
  work: (server: Server, child: Child) => Promise<T>,
): Promise<T> {
  const { child, server } = await startServer(corpus, tmp)
  try {
    return await work(server, child)
  } catch (error) {
    throw withOutput(error, child)
  } finally {
    await stopChild(child)
  }
}

/** What the server printed besides its banner. */
export function warningsOf(child: Child): string[] {
  return child.lines.filter((line) => !SERVER_LINES.test(line))
}

/**
 * Disjoint sets of published events, one per count, drawn in a seeded shuffle so they spread over the
 * whole tree and each run picks the same ones. Disjoint, so no section sees another's edits.
 */
export function pickEvents(corpus: Corpus, counts: number[]): KnownEvent[][] {
  const pool = corpus.published.map((e) => ({ id: e.id, stem: e.slug }))
  const needed = counts.reduce((sum, n) => sum + n, 0)
  if (needed > pool.length)
    throw new Error(
      `the write and live sections need ${needed} published events, the corpus has ${pool.length}: raise BENCH_EVENTS`,
    )
  const rng = seeded(45) // any fixed seed: issues 4 and 5
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1))
    ;[pool[i], pool[j]] = [pool[j]!, pool[i]!]
  }
  let next = 0
  return counts.map((n) => pool.slice(next, (next += n)))
}
