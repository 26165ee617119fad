// The limit: bare node:http replaying Almanac's exact bytes (replay.ts), pinned to the server core like
// Almanac was, under the same loads: each target's URL alone, then the varied mix's paths in turn.
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

/** Starts the replay of `book`, checks it answers Almanac's bytes, loads it as Almanac was loaded, stops it. */
export async function measureLimit(
  book: ReplayBook,
  targets: readonly { path: string }[],
  mixPaths: string[],
  settings: LoadSettings,
): Promise<LimitRun> {
  const child = startChild(['--import', 'tsx', REPLAY, book.close()], ROOT, SERVER_CORE)
  try {
    const { line } = await waitForLine(child, /^replay listening on \d+$/, START_TIMEOUT_MS)
    const origin = `http://127.0.0.1:${line.split(' ').pop()}`
    await verify(book, origin)
    const loads: LoadResult[] = []
    for (const t of targets) loads.push(await loadTest(`${origin}${API}${t.path}`, settings))
    const mix = await loadTest(`${origin}${mixPaths[0]}`, settings, mixPaths)
    return { targets: loads, mix }
  } catch (error) {
    throw withOutput(error, child)
  } finally {
    await stopChild(child)
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
