import { lstatSync } from 'node:fs'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import type { DriverWatch, WatchListener } from './driver.ts'
import { gatherNames } from './gather-names.ts'

/**
 * How long to gather names before reporting: a `git checkout` arrives as one batch, not hundreds. The server
 * gathers them, not the watcher's thread, whose timers wait behind chokidar's re-read of a folder.
 */
const GATHER_MS = 25

/**
 * The watcher thread's young generation (MB). chokidar's scan of the tree and each folder it reads again are
 * short-lived garbage; V8's default let the young generation grow to tens of MB, resident for the server's life.
 * At 8 MB a server over 41,920 files was ~35 MB smaller once ready (docs/architecture.md, memory); at 4 MB its
 * start cost ~0.6 s more CPU in scavenges.
 */
const WORKER_YOUNG_MB = 8

interface Message {
  paths?: string[]
  error?: string
  code?: string
  ready?: boolean
  closed?: boolean
}

/**
 * Follows every add, change, rename and delete under a folder (chokidar, in a worker thread of its
 * own). Temporary files of atomic saves (the server's and editors') and other dotfiles are ignored.
 */
export function watchFolder(dir: string, listener: WatchListener): DriverWatch {
  const worker = new Worker(new URL('../watch-worker.mjs', import.meta.url), {
    workerData: { dir },
    resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
  })
  let closed: () => void = () => {}
  const tell = watchErrors()
  // Missing, or empty: git makes the new file, then writes it. A folder on the way that became a file (ENOTDIR)
  // means the name is gone too; any other failure (EACCES, ELOOP, ENAMETOOLONG) hands the name on now.
  // Synchronous, in slices (gatherNames): on a small machine libuv's pool did ~130,000 lstat calls a second,
  // a third of the rate of calling lstat here.
  const unwritten = (path: string) => {
    try {
      const stats = lstatSync(join(dir, path), { throwIfNoEntry: false })
      return stats === undefined || (stats.isFile() && stats.size === 0)
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ENOTDIR'
    }
  }
  const gathered = gatherNames(GATHER_MS, (paths) => listener.changed(paths), unwritten)
  const ready = new Promise<void>((resolve) => {
    worker.on('message', (message: Message) => {
      if (message.ready) resolve()
      if (message.closed) closed()
      const error = message.error === undefined ? undefined : tell(message.error, message.code)
      if (error) listener.failed(new Error(error))
      if (message.paths) gathered.add(message.paths)
    })
  })
  worker.on('error', (error) => listener.failed(error))
  let closing: Promise<void> | undefined
  const close = async () => {
    gathered.stop()
    await new Promise<void>((resolve) => {
      closed = resolve
      worker.postMessage('close')
      setTimeout(resolve, 2_000).unref()
    })
    await worker.terminate()
  }
  return {
    ready,
    // Once: a second call (a shutdown racing an error's) would wait out the fallback for a worker already gone.
    close: () => (closing ??= close()),
  }
}

/**
 * A system limit (inotify watches, open files) fails once for every folder past it (once for every file,
 * when chokidar watched each: tens of thousands of errors at a start over a big tree). The first of each
 * is told, with what to do; the rest are not.
 */
const LIMITS: Record<string, string> = {
  ENOSPC:
    'the system limit of file watchers is reached (Linux: fs.inotify.max_user_watches); edits in the folders past it are not seen until it is raised (the server watches each folder of the content tree once) and the server restarted',
  EMFILE:
    'the limit of open files is reached (ulimit -n); edits in the folders past it are not seen until it is raised above the number of content folders and the server restarted',
}

/** What to tell of each watcher error: every error as it came, but a system limit only the first time. */
export function watchErrors(): (message: string, code?: string) => string | undefined {
  const told = new Set<string>()
  return (message, code) => {
    const limit = code === undefined ? undefined : LIMITS[code]
    if (!limit) return message
    if (told.has(code!)) return undefined
    told.add(code!)
    return `${limit} (${message})`
  }
}
