import { Worker } from 'node:worker_threads'
import type { DriverWatch, WatchListener } from './driver.ts'

/** How long to gather events before reporting: a `git checkout` arrives as one batch, not hundreds. */
const GATHER_MS = 25

interface Message {
  paths?: string[]
  error?: string
  ready?: boolean
  /** With `ready`: how many folders it watches. */
  watches?: number
  closed?: boolean
}

/** A folder's watch, and how many platform watches it holds (one per folder, whatever the files). */
export interface FolderWatch extends DriverWatch {
  /** Resolves with the number of folders watched once the watch is ready. */
  watches: Promise<number>
}

/**
 * Follows every add, change, rename and delete under a folder (one fs.watch per folder, in a worker
 * thread of its own). Temporary files of atomic saves (the server's and editors') and other dotfiles
 * are ignored.
 */
export function watchFolder(dir: string, listener: WatchListener): FolderWatch {
  const worker = new Worker(new URL('../watch-worker.mjs', import.meta.url), {
    workerData: { dir, gatherMs: GATHER_MS },
  })
  let closed: () => void = () => {}
  const watches = new Promise<number>((resolve) => {
    worker.on('message', (message: Message) => {
      if (message.ready) resolve(message.watches ?? 0)
      if (message.closed) closed()
      if (message.error) listener.failed(new Error(message.error))
      if (message.paths) listener.changed(message.paths)
    })
  })
  worker.on('error', (error) => listener.failed(error))
  return {
    ready: watches.then(() => {}),
    watches,
    async close() {
      await new Promise<void>((resolve) => {
        closed = resolve
        worker.postMessage('close')
        setTimeout(resolve, 2_000).unref()
      })
      await worker.terminate()
    },
  }
}
