// Issue 4: writes through the API of the real server on the full tree, one request at a time from this
// process, then the default list loaded alone and again while concurrent writers keep changing events.
// Every write is a real atomic file write (temp file, fsync, rename, directory fsync): that cost is the point.
import { describe, latency, send, type Answer, type Latency } from '../common/client.ts'
import { CATEGORIES } from '../common/content.ts'
import type { Settled } from '../common/idle.ts'
import { envNumber, loadTest, type LoadResult, type LoadSettings } from '../common/load.ts'
import type { KnownEvent, Server } from '../common/server.ts'
import { SENTENCES } from '../common/words.ts'

/** How many creates and updates are timed, and how many writers run during the second read test. */
export interface WriteSizes {
  creates: number
  updates: number
  writers: number
  /** A sequence of creates or updates stops here, done or not: a server slowing down must not stall the run. */
  capSeconds: number
}

/** One kind of write, request by request: latency of every answer, and those that were not the expected status. */
export interface WriteTiming extends Latency {
  /** Requests meant to be sent; `count` is how many were, fewer when the time cap cut the sequence short. */
  planned: number
  errors: number
  firstError?: string
}

/** The default list's throughput alone and under concurrent writes, with what the writers got done meanwhile. */
export interface ReadsUnderWrites {
  alone: LoadResult
  withWriters: LoadResult
  /** Requests/s with writers over requests/s alone. */
  ratio: number
  writers: number
  /** Writes the writers finished inside the measured run (its warm-up excluded). */
  writes: WriteTiming
  writesPerSec: number
}

/** Everything the write section reports, with how long the server kept busy after each burst. */
export interface WritesResult {
  creates: WriteTiming
  updates: WriteTiming
  reads: ReadsUnderWrites
  settled: { afterCreates: Settled; afterUpdates: Settled; afterReads: Settled }
}

/** The section's sizes: BENCH_CREATES, BENCH_UPDATES, BENCH_WRITERS, BENCH_WRITE_SECONDS. */
export function writeSizes(): WriteSizes {
  return {
    creates: envNumber('BENCH_CREATES', 500),
    updates: envNumber('BENCH_UPDATES', 200),
    writers: envNumber('BENCH_WRITERS', 4),
    capSeconds: envNumber('BENCH_WRITE_SECONDS', 45),
  }
}

/** Events each concurrent writer cycles through: enough that no writer rewrites one file back to back. */
export const WRITER_SET = 25

/**
 * Times `sizes.creates` POSTs and one PATCH per `updated` event, then the reads with and without writers
 * (on `written`). `settle` waits for the server to go quiet, so no step is charged for the previous one's work.
 */
export async function measureWrites(
  server: Server,
  settings: LoadSettings,
  sizes: WriteSizes,
  updated: KnownEvent[],
  written: KnownEvent[],
  settle: () => Promise<Settled>,
): Promise<WritesResult> {
  const events = `${server.base}/events`
  const capMs = sizes.capSeconds * 1000
  const creates = await timeSequence(sizes.creates, 201, capMs, (n) => send('POST', events, createBody(n), server.auth))
  const afterCreates = await settle()
  const updates = await timeSequence(updated.length, 200, capMs, (n) =>
    send('PATCH', `${events}/${updated[n]!.id}`, { title: `Bench update ${n}` }, server.auth),
  )
  const afterUpdates = await settle()
  const reads = await readsUnderWrites(server, settings, sizes.writers, written, settle)
  return { creates, updates, reads, settled: { afterCreates, afterUpdates, afterReads: await settle() } }
}

/** A create as an editor's form would send it: dates, an existing category and a short Markdown description. */
function createBody(n: number): Record<string, unknown> {
  const day = `2027-05-0${1 + (n % 9)}`
  const sentences = SENTENCES.en
  return {
    title: `Bench create ${n}`,
    start_date: `${day} 10:00:00`,
    end_date: `${day} 12:00:00`,
    categories: [CATEGORIES.first + (n % (CATEGORIES.last - CATEGORIES.first + 1))],
    description: [0, 1, 2].map((i) => sentences[(n + i) % sentences.length]).join(' '),
  }
}

/** Runs up to `count` requests strictly one after another, for at most `capMs`, and times each, answer included. */
async function timeSequence(
  count: number,
  expected: number,
  capMs: number,
  run: (n: number) => Promise<Answer>,
): Promise<WriteTiming> {
  const recorder = createRecorder(expected)
  const started = performance.now()
  for (let n = 0; n < count && performance.now() - started < capMs; n++) await recorder.record(run(n))
  return { ...recorder.result(), planned: count }
}

/** Collects write latencies and failures; `reset` starts over, for a count that excludes a warm-up. */
function createRecorder(expected: number) {
  let times: number[] = []
  let errors = 0
  let firstError: string | undefined
  const fail = (why: string) => {
    errors++
    firstError ??= why
  }
  return {
    async record(pending: Promise<Answer>): Promise<void> {
      try {
        const answer = await pending
        times.push(answer.ms)
        if (answer.status !== expected) fail(describe(answer))
      } catch (error) {
        fail((error as Error).message)
      }
    },
    reset() {
      times = []
      errors = 0
      firstError = undefined
    },
    result(): WriteTiming {
      return { ...latency(times), planned: times.length, errors, ...(firstError === undefined ? {} : { firstError }) }
    },
  }
}

/**
 * The default list loaded alone, then with `writers` loops of PATCHes running in this process (sequential
 * within each writer, each on its own events) from the warm-up until the measured run ends.
 */
async function readsUnderWrites(
  server: Server,
  settings: LoadSettings,
  writers: number,
  events: KnownEvent[],
  settle: () => Promise<Settled>,
): Promise<ReadsUnderWrites> {
  const url = `${server.base}/events`
  const alone = await loadTest(url, settings)
  // The list cache is warm and the server idle at the end of the first run; it should start the second so too.
  await settle()
  const recorder = createRecorder(200)
  const running = startWriters(server, writers, events, recorder)
  try {
    // A warm-up of its own, so the measured run starts with the writers already in full swing.
    if (settings.warmupSeconds > 0)
      await loadTest(url, { ...settings, seconds: settings.warmupSeconds, warmupSeconds: 0, rounds: 1 })
    recorder.reset()
    const started = performance.now()
    const withWriters = await loadTest(url, { ...settings, warmupSeconds: 0 })
    const elapsedMs = performance.now() - started
    // Taken before the writers stop, so writes finishing after the run are not counted.
    const writes = recorder.result()
    return {
      alone,
      withWriters,
      ratio: withWriters.requestsPerSec / alone.requestsPerSec,
      writers,
      writes,
      writesPerSec: (writes.count / elapsedMs) * 1000,
    }
  } finally {
    await running.stop()
  }
}

/** Starts `count` writer loops; `stop` lets each finish its request in flight and resolves when all have. */
function startWriters(
  server: Server,
  count: number,
  events: KnownEvent[],
  recorder: ReturnType<typeof createRecorder>,
) {
  let stopped = false
  const loop = async (writer: number) => {
    const own = events.slice(writer * WRITER_SET, (writer + 1) * WRITER_SET)
    for (let k = 0; !stopped; k++) {
      const event = own[k % own.length]!
      await recorder.record(
        send('PATCH', `${server.base}/events/${event.id}`, { title: `Bench writer ${writer}.${k}` }, server.auth),
      )
    }
  }
  const loops = Array.from({ length: count }, (_, writer) => loop(writer))
  return {
    async stop() {
      stopped = true
      await Promise.all(loops)
    },
  }
}
