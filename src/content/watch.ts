import { Worker } from 'node:worker_threads'
import type { Store } from './store.ts'

/** A running watch over a content folder. */
export interface ContentWatch {
  /** Resolves once the watcher has seen the whole tree and the store has read what changed before it did. */
  ready: Promise<void>
  close(): Promise<void>
}

/** How long to gather events before reloading: a `git checkout` arrives as one batch, not hundreds. */
const GATHER_MS = 25

/**
 * How long after the last batch the whole tree is compared with what the store read (one lstat a
 * file): a file rewritten twice in quick succession, as a checkout does, can lose an event.
 */
const RECONCILE_MS = 300

interface Message {
  paths?: string[]
  error?: string
  ready?: boolean
  closed?: boolean
}

/**
 * Follows every add, change, rename and delete under the content folder (chokidar, in a worker
 * thread of its own) and hands the paths to the store, which re-reads only those files. Temporary
 * files of atomic saves (the server's and editors') and other dotfiles are ignored.
 */
export function watchContent(store: Store, onError: (error: Error) => void = () => {}): ContentWatch {
  const worker = new Worker(new URL('./watch-worker.mjs', import.meta.url), {
    workerData: { dir: store.dir, gatherMs: GATHER_MS },
  })
  let running = Promise.resolve()
  let closed: () => void = () => {}
  let reconcileTimer: NodeJS.Timeout | undefined
  const reconcileSoon = () => {
    clearTimeout(reconcileTimer)
    reconcileTimer = setTimeout(
      () => void (running = running.then(() => store.reconcile()).catch(onError)),
      RECONCILE_MS,
    )
    reconcileTimer.unref()
  }
  const ready = new Promise<void>((resolve) => {
    worker.on('message', (message: Message) => {
      // What changed between loading and the watcher seeing the tree is read now: no edit falls in between.
      if (message.ready) {
        running = running.then(() => store.reconcile()).catch(onError)
        void running.then(resolve)
      }
      if (message.closed) closed()
      if (message.error) onError(new Error(message.error))
      if (message.paths) {
        const paths = message.paths
        running = running.then(() => store.reload(paths)).catch(onError)
        reconcileSoon()
      }
    })
  })
  worker.on('error', onError)
  return {
    ready,
    async close() {
      clearTimeout(reconcileTimer)
      await new Promise<void>((resolve) => {
        closed = resolve
        worker.postMessage('close')
        setTimeout(resolve, 2_000).unref()
      })
      await worker.terminate()
      await running
    },
  }
}
