// Issues 4 and 5: a server started as a site with writers would run it (a users file), written to through
// the API, then edited on disk and by git. It changes the content tree, so the bench runs it last.
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { openUsers } from '../../src/auth/users.ts'
import { measureCheckout, type CheckoutResult } from './checkout.ts'
import { firstOk, freePort, startChild, stopChild, waitForLine, withOutput, type Child } from './children.ts'
import { basicAuth } from './client.ts'
import type { Corpus } from './content.ts'
import { waitForIdle } from './idle.ts'
import { measureVisible, type VisibleResult } from './live.ts'
import { envNumber, type LoadSettings } from './load.ts'
import { API, SERVER_LINES } from './measure.ts'
import { measureWrites, WRITER_SET, type WriteSizes, type WritesResult } from './writes.ts'
import { seeded } from './words.ts'

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

/** Sizes of the write and live-content sections, from the environment. */
export interface EditingSizes extends WriteSizes {
  /** The longest wait for the server to go quiet before a step (after writes, edits or a checkout). */
  settleSeconds: number
  edits: number
  checkoutFiles: number
}

/** What the two sections measured, and anything the server printed that was not its banner. */
export interface EditingRun {
  writes: WritesResult
  live: { visible: VisibleResult; checkout: CheckoutResult }
  warnings: string[]
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const LOGIN = 'bench'
const PASSWORD = 'bench-password-123'
const START_TIMEOUT_MS = 60_000

/** The sections' sizes: BENCH_CREATES, BENCH_UPDATES, BENCH_WRITERS, BENCH_WRITE_SECONDS, BENCH_SETTLE_SECONDS, BENCH_EDITS, BENCH_CHECKOUT_FILES. */
export function editingSizes(): EditingSizes {
  return {
    creates: envNumber('BENCH_CREATES', 500),
    updates: envNumber('BENCH_UPDATES', 200),
    writers: envNumber('BENCH_WRITERS', 4),
    capSeconds: envNumber('BENCH_WRITE_SECONDS', 45),
    settleSeconds: envNumber('BENCH_SETTLE_SECONDS', 30),
    edits: envNumber('BENCH_EDITS', 50),
    checkoutFiles: envNumber('BENCH_CHECKOUT_FILES', 1000),
  }
}

/** Starts the CLI with a users file, runs the write section, then the live-content section, then stops it. */
export async function measureEditing(
  corpus: Corpus,
  settings: LoadSettings,
  sizes: EditingSizes,
  tmp: string,
  log: (m: string) => void,
): Promise<EditingRun> {
  const picks = pickEvents(corpus, [sizes.updates, WRITER_SET * sizes.writers, sizes.edits + 1, sizes.checkoutFiles])
  const [updated, written, edited, checkedOut] = picks as [KnownEvent[], KnownEvent[], KnownEvent[], KnownEvent[]]
  const { child, server } = await startServer(corpus, tmp)
  const settle = () => waitForIdle(server.pid, sizes.settleSeconds * 1000)
  try {
    log(
      `writes: ${sizes.creates} creates, ${sizes.updates} updates, then reads alone and with ${sizes.writers} writers …`,
    )
    const writes = await measureWrites(server, settings, sizes, updated, written, settle)
    log(`live content: ${sizes.edits} edits on disk, then a git checkout of ${sizes.checkoutFiles} files …`)
    const visible = await measureVisible(server, edited, settle)
    const checkout = await measureCheckout(server, checkedOut, settle)
    return { writes, live: { visible, checkout }, warnings: child.lines.filter((line) => !SERVER_LINES.test(line)) }
  } catch (error) {
    throw withOutput(error, child)
  } finally {
    await stopChild(child)
  }
}

/** A users file made by the real code, then the CLI on it, started as `measureAlmanac` starts it. */
async function startServer(corpus: Corpus, tmp: string): Promise<{ child: Child; server: Server }> {
  const users = join(tmp, 'users.yaml')
  // Outside the content folder, as a real site keeps it: the watcher must not see it.
  openUsers(users).add(LOGIN, 'administrator', PASSWORD)
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const args = ['serve', '--content', corpus.dir, '--port', String(port), '--host', '127.0.0.1', '--users', users]
  const child = startChild([join(ROOT, 'bin', 'almanac.js'), ...args], tmp)
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

/**
 * Disjoint sets of published events, one per count, drawn in a seeded shuffle so they spread over the
 * whole tree and each run picks the same ones. Disjoint, so no section sees another's edits.
 */
function pickEvents(corpus: Corpus, counts: number[]): KnownEvent[][] {
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
