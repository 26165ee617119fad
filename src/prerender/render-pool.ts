import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import { KINDS } from '../content/model/kinds.ts'
import type { Store } from '../content/store.ts'
import type { Lang } from '../languages.ts'
import type { Manifest, ManifestEntry } from './manifest.ts'
import type { Job } from './public-urls.ts'
import type { WorkerMessage, WorkerSetup } from './render-worker.ts'

/** Each job's file and manifest entry (null: the job has no file), and how many files were written. */
export interface Rendered {
  results: ([string, ManifestEntry] | null)[]
  written: number
}

/** Render workers, loading their trees from the moment they are started. */
export interface Pool {
  /**
   * Renders jobs, handing out batches as workers come free, and to `local` (this thread) likewise when given;
   * rejects on the first error.
   */
  render(
    jobs: Job[],
    onProgress?: (done: number) => void,
    local?: (jobs: Job[]) => Promise<Rendered>,
  ): Promise<Rendered>
  close(): Promise<void>
}

// Jobs go out in runs of this many, in order: neighbours share the events they hold, and a worker
// finds them in its memo. Small enough that the workers finish together.
const BATCH = 400
// Rendering makes short-lived objects by the gigabyte: a larger young generation collects them in
// fewer, cheaper scavenges (a full build took ~6% less time with 64 MB than with the default).
const YOUNG_GENERATION_MB = 64

const MAX_WORKERS = 4
const PAGES_PER_WORKER = 4000

/** What `workersFor` needs to know of a full build. */
export interface PoolBuild extends Omit<WorkerSetup, 'dir' | 'defaultLanguage' | 'fallback' | 'previous' | 'fresh'> {
  store: Store
  languages: readonly Lang[]
  /** How many (default: one per core but this thread's, at most 4, none for a small site). */
  workers?: number | undefined
}

/**
 * Worker threads for a full build, started before its jobs are known so they load meanwhile; none
 * when the site is small (a worker costs a second or two to start) or a file is broken (a worker
 * reads the tree from disk, where the store kept the last good version: the build renders here).
 */
export function workersFor(build: PoolBuild, previous: Manifest, fresh: boolean): Pool | undefined {
  const { store, languages, workers, site, perPage, maxPerPage, layout, out, now } = build
  const pages = KINDS.reduce((sum, kind) => sum + store.list(kind).length, 0) * languages.length
  // This thread renders too (`renderBeside`): one worker per other core.
  const count = workers ?? Math.min(availableParallelism() - 1, MAX_WORKERS, Math.floor(pages / PAGES_PER_WORKER))
  if (count < 1 || store.problems().some((p) => p.severity !== 'warning')) return undefined
  const { dir, defaultLanguage, fallback } = store
  return startPool(
    { dir, defaultLanguage, fallback, site, perPage, maxPerPage, layout, out, now, previous: [...previous], fresh },
    count,
  )
}

/** Starts `count` worker threads, each over its own copy of the store loaded from `setup.dir`. */
export function startPool(setup: WorkerSetup, count: number): Pool {
  const workers = Array.from(
    { length: count },
    () =>
      new Worker(new URL('./render-worker.mjs', import.meta.url), {
        workerData: setup,
        resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
      }),
  )
  // Until `render` listens, a worker's first message (ready, or why it could not load) waits here.
  const first = workers.map(
    (worker) =>
      new Promise<WorkerMessage>((resolve, reject) => {
        worker.once('message', resolve)
        worker.once('error', reject)
        worker.once('exit', (code) => reject(new Error(`a render worker exited with code ${code} while loading`)))
      }),
  )
  // Heard by `render`; a pool closed before it renders (its jobs could not be listed) has no one to tell.
  for (const promise of first) promise.catch(() => {})
  return {
    async render(jobs, onProgress, local) {
      const results: Rendered['results'] = new Array(jobs.length)
      let written = 0
      let next = 0
      let done = 0
      let failed = false
      const lane = async (render: (batch: Job[]) => Promise<Rendered>) => {
        while (next < jobs.length && !failed) {
          const batch = next
          next += BATCH
          const reply = await render(jobs.slice(batch, batch + BATCH))
          for (const [j, result] of reply.results.entries()) results[batch + j] = result
          written += reply.written
          done += reply.results.length
          onProgress?.(done)
        }
      }
      const lanes = workers.map(async (worker, i) => {
        const ready = await first[i]!
        if ('error' in ready) throw new Error(`a render worker could not load the content: ${ready.error}`)
        await lane(async (batch) => {
          const reply = await ask(worker, batch)
          if ('error' in reply) throw new Error(reply.error)
          if (!('results' in reply)) throw new Error('a render worker answered out of turn')
          return reply
        })
      })
      // The first failure stops every lane from taking more.
      const stop = (error: Error) => {
        failed = true
        throw error
      }
      const all = (local ? [...lanes, lane(local)] : lanes).map((one) => one.catch(stop))
      await Promise.all(all)
      return { results, written }
    },
    async close() {
      await Promise.all(workers.map((worker) => worker.terminate()))
    },
  }
}

/**
 * Jobs in the pool, but those `here` picks rendered on this thread meanwhile (`renderHere`): the calendar feeds, so
 * that the app which follows a build's edits keeps their VEVENTs (src/serialize/feed/plain-keys.ts). The jobs come
 * back in the order of their results.
 */
export async function renderBeside(
  pool: Pool,
  jobs: Job[],
  here: (url: string) => boolean,
  renderHere: (jobs: Job[], onProgress: () => void) => Promise<Rendered>,
  onProgress: (done: number, all: number) => void,
): Promise<[Job[], Rendered]> {
  const near = jobs.filter((job) => here(job.url))
  const away = jobs.filter((job) => !here(job.url))
  const mine = renderHere(near, () => {})
  // Once its own are done, this thread takes batches like a worker (it started while they loaded their trees).
  const local = async (batch: Job[]) => {
    await mine
    return renderHere(batch, () => {})
  }
  const [there, ours] = await Promise.all([pool.render(away, (done) => onProgress(done, away.length), local), mine])
  return [[...away, ...near], { results: [...there.results, ...ours.results], written: there.written + ours.written }]
}

/** Sends a worker a batch and waits for its answer, or for it to fail. */
function ask(worker: Worker, jobs: Job[]): Promise<WorkerMessage> {
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => done(() => reject(error))
    const exit = (code: number) => done(() => reject(new Error(`a render worker exited with code ${code}`)))
    const answer = (message: WorkerMessage) => done(() => resolve(message))
    const done = (settle: () => void) => {
      worker.off('message', answer).off('error', fail).off('exit', exit)
      settle()
    }
    worker.on('message', answer).on('error', fail).on('exit', exit)
    worker.postMessage(jobs)
  })
}
