import { lstatSync, statSync } from 'node:fs'
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

/**
 * How often the content folder itself is looked at (one stat): moved away and back (`mv content x; mv x content`),
 * removed and made again, or a link to it pointed elsewhere (`content -> releases/42`, swapped on a deploy), it is
 * another folder, or the same one with no watch left on it (chokidar drops every watch once the folder it was given
 * goes), and the watcher is started again over what is there now.
 */
const FOLDER_CHECK_MS = 1_000

interface Message {
  paths?: string[]
  error?: string
  code?: string
  ready?: boolean
  closed?: boolean
  gone?: boolean
}

/** One watcher thread over the folder as it was when started. */
interface Thread {
  ready: Promise<void>
  /** The folder it watches went away: it hears nothing more. */
  gone: boolean
  close(): Promise<void>
}

/**
 * Follows every add, change, rename and delete under a folder (chokidar, in a worker thread of its
 * own). Temporary files of atomic saves (the server's and editors') and other dotfiles are ignored.
 * When the folder itself is replaced (FOLDER_CHECK_MS), a new thread watches the new one, and the store is told
 * to compare the whole tree ('' is the folder's own path) at once and once it is ready: nothing done meanwhile is
 * missed.
 */
export function watchFolder(dir: string, listener: WatchListener): DriverWatch {
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
  const heard = (message: Message) => {
    const error = message.error === undefined ? undefined : tell(message.error, message.code)
    if (error) listener.failed(new Error(error))
    if (message.paths) gathered.add(message.paths)
  }
  let watched = folderIdentity(dir)
  let thread: Thread | undefined
  let stopped = false
  // A restarted thread has the store compare the whole tree at once (it serves the new folder), and again once it is
  // ready, unless another has taken its place (what changed while it started is heard by no watch).
  const start = (told: boolean) => {
    const started = startThread(dir, heard, listener.failed)
    thread = started
    if (told) gathered.add([''])
    if (told) void started.ready.then(() => thread === started && !stopped && gathered.add(['']))
    return started
  }
  const first = start(false)
  // One look at a time, and none once closing. A look waits for the old thread to close (2 s at most), never for the
  // new one to be ready: a start that takes long (a link pointed at `/`) is closed by the next look that finds the
  // folder changed again.
  const lookNow = async () => {
    const now = folderIdentity(dir)
    if (stopped || (thread ? !thread.gone && now === watched : now === undefined)) return
    const old = thread
    thread = undefined
    watched = now
    await old?.close()
    if (stopped) return
    // The store compares the whole tree: what the new folder holds, or nothing when there is none.
    if (now !== undefined) start(true)
    else if (!old?.gone) gathered.add([''])
  }
  let looking: Promise<void> | undefined
  const look = () => (looking ??= lookNow().finally(() => (looking = undefined)))
  const timer = setInterval(() => void look().catch(listener.failed), FOLDER_CHECK_MS)
  timer.unref()
  let closing: Promise<void> | undefined
  const close = async () => {
    stopped = true
    clearInterval(timer)
    gathered.stop()
    // A look under way may be closing the thread it replaces: that one is waited for too.
    await looking?.catch(() => {})
    await thread?.close()
  }
  return {
    ready: first.ready,
    // Once: a second call (a shutdown racing an error's) would wait out the fallback for a worker already gone.
    close: () => (closing ??= close()),
  }
}

/** The folder at `dir` (through a link), as device and inode; undefined when there is none. */
function folderIdentity(dir: string): string | undefined {
  try {
    const stats = statSync(dir, { throwIfNoEntry: false })
    return stats?.isDirectory() ? `${stats.dev}:${stats.ino}` : undefined
  } catch {
    return undefined
  }
}

function startThread(dir: string, heard: (message: Message) => void, failed: (error: Error) => void): Thread {
  const worker = new Worker(new URL('../watch-worker.mjs', import.meta.url), {
    workerData: { dir },
    resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
  })
  let closed: () => void = () => {}
  const thread: Thread = {
    gone: false,
    // A thread that ended (its error told) will never be ready: waiting for it would hold every later look.
    ready: new Promise<void>((resolve) => {
      worker.on('message', (message: Message) => {
        if (message.ready) resolve()
        if (message.closed) closed()
        if (message.gone) thread.gone = true
        heard(message)
      })
      worker.on('exit', () => resolve())
    }),
    async close() {
      await new Promise<void>((resolve) => {
        closed = resolve
        worker.postMessage('close')
        setTimeout(resolve, 2_000).unref()
      })
      await worker.terminate()
    },
  }
  worker.on('error', failed)
  return thread
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
