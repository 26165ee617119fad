import { Worker } from 'node:worker_threads'
import type { DriverWatch, WatchListener } from './driver.ts'

/** How long to gather events before reporting: a `git checkout` arrives as one batch, not hundreds. */
const GATHER_MS = 25

interface Message {
  paths?: string[]
  error?: string
  ready?: boolean
  closed?: boolean
}

/**
 * Follows every add, change, rename and delete under a folder (chokidar, in a worker thread of its
 * own). Temporary files of atomic saves (the server's and editors') and other dotfiles are ignored.
 */
export function watchFolder(dir: string, listener: WatchListener): DriverWatch {
  const worker = new Worker(new URL('../watch-worker.mjs', import.meta.url), {
    workerData: { dir, gatherMs: GATHER_MS },
  })
  let closed: () => void = () => {}
  const ready = new Promise<void>((resolve) => {
    worker.on('message', (message: Message) => {
      if (message.ready) resolve()
      if (message.closed) closed()
      if (message.error) listener.failed(new Error(message.error))
      if (message.paths) listener.changed(message.paths)
    })
  })
  worker.on('error', (error) => listener.failed(error))
  return {
    ready,
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
