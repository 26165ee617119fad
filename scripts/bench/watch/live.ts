// Issue 5, change to visible: an editor saves one event's Markdown file; how long until the API serves it.
// The server learns of the save only through its chokidar watch of the content folder.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { get, latency, sleep, titleOf, type Latency } from '../common/client.ts'
import type { Settled } from '../common/idle.ts'
import type { KnownEvent, Server } from '../common/server.ts'

/** The measured edits' latencies (save to first answer showing it), with the warm-up probe's own. */
export interface VisibleResult extends Latency {
  /** Edits planned; `count` of them showed, `timeouts` did not, and the rest were skipped after too many timeouts. */
  edits: number
  timeouts: number
  /** Waited for the server to go quiet (after the write section) before the probe. */
  settledMs: number
  /** The edit made before the measured ones, also proof the watcher is up; null if it never showed. */
  probeMs: number | null
  pollMs: number
  timeoutMs: number
}

const POLL_MS = 5
const TIMEOUT_MS = 5000
/** A watcher that misses this many edits is broken, not slow: 50 edits of 5 s each would stall the run. */
const MAX_TIMEOUTS = 5
// The watcher's first scan of ~42,000 files runs after the server prints its banner; the probe may wait for it.
const PROBE_TIMEOUT_MS = 60_000

/** One probe edit, then each event's source file rewritten with a new title in turn, each timed until served. */
export async function measureVisible(
  server: Server,
  events: KnownEvent[],
  settle: () => Promise<Settled>,
): Promise<VisibleResult> {
  const [probe, ...measured] = events
  if (!probe) throw new Error('the live-content section needs at least one event to edit')
  const settledMs = (await settle()).ms
  const probeMs = await editAndWait(server, probe, 'Live probe edit', PROBE_TIMEOUT_MS)
  if (probeMs === null)
    throw new Error(
      `an edit of ${sourceFile(server, probe)} never showed in the API: is the server watching its content?`,
    )
  const times: number[] = []
  let timeouts = 0
  for (const [n, event] of measured.entries()) {
    if (timeouts >= MAX_TIMEOUTS) break
    const ms = await editAndWait(server, event, `Live edit ${n}`, TIMEOUT_MS)
    if (ms === null) timeouts++
    else times.push(ms)
  }
  return {
    ...latency(times),
    edits: measured.length,
    timeouts,
    settledMs,
    probeMs,
    pollMs: POLL_MS,
    timeoutMs: TIMEOUT_MS,
  }
}

/** Rewrites the event's source with `title` (a plain write, as most editors save) and waits until it is served. */
async function editAndWait(
  server: Server,
  event: KnownEvent,
  title: string,
  timeoutMs: number,
): Promise<number | null> {
  const file = sourceFile(server, event)
  const text = withTitle(await readFile(file, 'utf8'), title)
  const saved = performance.now()
  await writeFile(file, text)
  return waitForTitles(server, [event.id], title, saved, timeoutMs, POLL_MS).then((at) =>
    at === null ? null : at - saved,
  )
}

/**
 * Polls `GET /events/<id>` for each id in turn every `pollMs` until all serve `title` (or `title(id)`); the
 * time of the answer that completed them, or null past `timeoutMs` after `since`. Refusals count as not yet.
 */
export async function waitForTitles(
  server: Server,
  ids: number[],
  title: string | ((id: number) => string),
  since: number,
  timeoutMs: number,
  pollMs: number,
): Promise<number | null> {
  const expected = (id: number) => (typeof title === 'string' ? title : title(id))
  let waiting = [...ids]
  for (;;) {
    const seen = await Promise.all(
      waiting.map((id) => get(`${server.base}/events/${id}`).then(titleOf, () => undefined)),
    )
    const at = performance.now()
    waiting = waiting.filter((id, i) => seen[i] !== expected(id))
    if (waiting.length === 0) return at
    if (at - since > timeoutMs) return null
    await sleep(pollMs)
  }
}

/** Where the generator put an event's source file: `content/events/<stem>.en.md`. */
export function sourceFile(server: Server, event: KnownEvent): string {
  return join(server.dir, 'events', `${event.stem}.en.md`)
}

/** The file's text with its front matter's `title:` line replaced; titles here are plain YAML scalars. */
export function withTitle(text: string, title: string): string {
  const next = text.replace(/^title: .*$/m, `title: ${title}`)
  if (next === text) throw new Error(`no "title:" line to change in:\n${text.slice(0, 200)}`)
  return next
}

/** The `title:` of a generated file, unquoted (the generator quotes only what YAML would misread). */
export function titleIn(text: string): string {
  const raw = /^title: (.*)$/m.exec(text)?.[1]
  if (raw === undefined) throw new Error(`no "title:" line in:\n${text.slice(0, 200)}`)
  return raw.startsWith('"') ? (JSON.parse(raw) as string) : raw
}
