import { parentPort, workerData } from 'node:worker_threads'
import { createStore } from '../content/store.ts'
import type { Lang } from '../languages.ts'
import type { Layout } from './file-layout.ts'
import { Manifest, type ManifestEntry } from './manifest.ts'
import { createOutput } from './output-files.ts'
import { createBuildApp, createRenderer, type AppSettings } from './renderer.ts'
import type { Job } from './public-urls.ts'

/** What a render worker is started with: everything it needs to load the same tree and answer as the build's app. */
export interface WorkerSetup extends AppSettings {
  dir: string
  defaultLanguage: Lang
  fallback: boolean
  layout: Layout
  out: string
  /** The build's instant. */
  now: number
  /** The manifest before this build: files whose content did not change are not written again. */
  previous: [string, ManifestEntry][]
  /** The output folder was empty: new files are written in place (`fresh-files.ts`). */
  fresh: boolean
}

/** From a worker: ready after loading; per batch of jobs, each job's file and manifest entry (null: no file). */
export type WorkerMessage =
  | { ready: true }
  | { results: ([string, ManifestEntry] | null)[]; written: number }
  | { error: string }

const setup = workerData as WorkerSetup
const port = parentPort!
try {
  // Read only: a worker never assigns ids or writes content; problems are the main thread's to report.
  const store = await createStore(setup.dir, {
    defaultLanguage: setup.defaultLanguage,
    fallback: setup.fallback,
    assignIds: false,
    timezone: setup.site.timezone,
    now: () => setup.now,
  })
  const app = createBuildApp(store, setup, setup.layout, () => setup.now)
  // Asynchronous writes: creating a file can block for a fraction of a millisecond on a busy disk, and the libuv
  // pool's threads wait there while this thread renders on (the whole batch has landed before it is answered).
  const output = createOutput(setup.out, new Manifest(setup.previous), false, setup.fresh)
  const renderer = createRenderer(app, setup.layout, output)
  port.on('message', (jobs: Job[]) => {
    void (async () => {
      const results: ([string, ManifestEntry] | null)[] = []
      for (const job of jobs) {
        const file = await renderer.render(job)
        results.push(file ? [file, output.manifest.get(file)!] : null)
      }
      await output.drain()
      port.postMessage({ results, written: output.take().written } satisfies WorkerMessage)
    })().catch((error: Error) => port.postMessage({ error: describe(error) } satisfies WorkerMessage))
  })
  port.postMessage({ ready: true } satisfies WorkerMessage)
} catch (error) {
  port.postMessage({ error: describe(error as Error) } satisfies WorkerMessage)
}

/** A system error (a full disk, a folder that is a file) says what it is; anything else is a bug, with its stack. */
function describe(error: Error): string {
  return 'code' in error ? error.message : (error.stack ?? String(error))
}
