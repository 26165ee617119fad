// The limit: bare node:http replaying Almanac's exact bytes (replay.ts), pinned to the server core like
// Almanac was, under the same loads: each target's URL alone, then the varied mix's paths in turn. The reads
// subject runs it beside Almanac and loads the two round for round (paired.ts); `measureLimit` loads it alone.
import { fileURLToPath } from 'node:url'
import { startChild, stopChild, waitForLine, withOutput } from './children.ts'
import { loadTest, type LoadResult, type LoadSettings } from './load.ts'
import { ROOT } from './paths.ts'
import { SERVER_CORE } from './pin.ts'
import { API, START_TIMEOUT_MS } from './server.ts'
import { capture, endToEnd, type ReplayBook } from './capture.ts'

const REPLAY = fileURLToPath(new URL('./replay.ts', import.meta.url))
/** How many of the book's answers are fetched back from the replay and compared before it is measured. */
const CHECKS = 60

/** The limit under each target's load and under the mix. */
export interface LimitRun {
  targets: LoadResult[]
  mix: LoadResult
}

/** The replay, running: its origin and pid, and how to stop it. */
export interface Limit {
  origin: string
  pid: number
  stop(): Promise<void>
}

/** Starts the replay of `book` (closing it) pinned to the server core, and checks it answers Almanac's bytes. */
export async function startLimit(book: ReplayBook): Promise<Limit> {
  const child = startChild(['--import', 'tsx', REPLAY, book.close()], ROOT, SERVER_CORE)
  try {
    const { line } = await waitForLine(child, /^replay listening on \d+$/, START_TIMEOUT_MS)
    const origin = `http://127.0.0.1:${line.split(' ').pop()}`
    await verify(book, origin)
    return { origin, pid: child.pid, stop: () => stopChild(child) }
  } catch (error) {
    await stopChild(child)
    throw withOutput(error, child)
  }
}

/** Starts the replay of `book`, loads it as Almanac was loaded, stops it. */
export async function measureLimit(
  book: ReplayBook,
  targets: readonly { path: string }[],
  mixPaths: string[],
  settings: LoadSettings,
): Promise<LimitRun> {
  const limit = await startLimit(book)
  try {
    const loads: LoadResult[] = []
    for (const t of targets) loads.push(await loadTest(`${limit.origin}${API}${t.path}`, settings))
    const mix = await loadTest(`${limit.origin}${mixPaths[0]}`, settings, mixPaths)
    return { targets: loads, mix }
  } finally {
    await limit.stop()
  }
}

/** A replay that answers other bytes would make every ratio meaningless: a spread of entries is compared. */
async function verify(book: ReplayBook, origin: string): Promise<void> {
  const n = book.entries.length
  const picks = new Set(
    Array.from({ length: Math.min(CHECKS, n) }, (_, i) => Math.floor((i * n) / Math.min(CHECKS, n))),
  )
  for (const i of picks) {
    const entry = book.entries[i]!
    const got = await capture(`${origin}${entry.path}`)
    const same =
      got.status === entry.status &&
      got.body.equals(book.body(i)) &&
      JSON.stringify(endToEnd(got.headers, false)) === JSON.stringify(endToEnd(entry.headers, false))
    if (!same) throw new Error(`the replay of ${entry.path} does not answer Almanac's status, headers and body`)
  }
}
