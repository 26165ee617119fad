// The content watcher's own thread. chokidar re-reads a folder when a file in it is added or
// renamed; in a folder of tens of thousands of records that is tens of milliseconds of CPU a time
// (it was most of a second before folder-watcher.mjs listed without a stat per file), so it runs
// here, beside the server, and only the paths it finds cross over to the store.
// Plain JavaScript: a worker starts without the TypeScript loader of the main thread.
import { readlinkSync, realpathSync } from 'node:fs'
import { setPriority } from 'node:os'
import { join, relative, sep } from 'node:path'
import { parentPort, workerData } from 'node:worker_threads'
import { FolderWatcher } from './folder-watcher.mjs'

// chokidar reads a whole folder again after any change in it, and again as soon as it is done while changes
// keep coming: 80–140 ms of CPU a time at 40,000 files in one folder, even listed by type alone. On a server
// with one core (or pinned to one) it would take that core from the requests, so this thread runs at a lower
// priority (nice 10: about a tenth of a core the requests want whole, all of it when they leave it idle), and
// a write no longer waits behind it. Linux names a thread by its id in /proc/thread-self; elsewhere the
// thread keeps its priority.
try {
  setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), 10)
} catch {}

// The content folder may itself be a link (`content -> /srv/site`): chokidar, following no link, would watch
// nothing under it. Its real path is watched, and names are still given relative to it.
let dir = workerData.dir
try {
  dir = realpathSync(dir)
} catch {}
/** A dotfile (the store's, atomic saves' temporaries) or an editor's backup, anywhere under the folder. */
const hidden = (path) =>
  path !== dir &&
  relative(dir, path)
    .split(sep)
    .some((part) => part.startsWith('.') || part.endsWith('~'))
// Folders only: chokidar would keep a system watch, a stat and closures for every file (~3.9 KB each,
// 113–158 MB at 42,000 files), when a folder's own watch already reports every file in it by name
// (chokidar's raw events). So files are ignored, and each name a folder's watch reports is handed on:
// the store reads it and finds out what, if anything, changed. A folder added is handed on whole.
const watcher = new FolderWatcher({
  ignoreInitial: true,
  // A link is reported by the store, never followed: a linked folder could be anywhere on the disk.
  followSymlinks: false,
  ignored: (path, stats) => (stats !== undefined && !stats.isDirectory()) || hidden(path),
}).add(dir)
// Names go over at the end of the turn that heard them, and the server gathers them (disk-watch.ts): a timer
// here would wait behind whatever this thread is doing when it is due.
let gathered = new Set()
let posting
const post = () => {
  parentPort.postMessage({ paths: [...gathered] })
  gathered = new Set()
  posting = undefined
}
const gather = (path) => {
  if (hidden(path)) return
  gathered.add(relative(dir, path).split(sep).join('/'))
  posting ??= setImmediate(post)
}
// A name the system did not give (some platforms) leaves the whole folder to be compared.
watcher.on('raw', (_event, name, details) => {
  const folder = details?.watchedPath
  if (typeof folder === 'string') gather(typeof name === 'string' && name ? join(folder, name) : folder)
})
// A folder made or removed: its path goes over, so the store compares the tree (files written into a new
// folder before its watch began are found that way).
watcher.on('addDir', gather).on('unlinkDir', gather)
// The folder itself went (moved away, removed): chokidar has dropped every watch under it, so this thread hears
// nothing more, and the server starts another once a folder is there again (disk-watch.ts).
watcher.on('unlinkDir', (path) => {
  if (path === dir) parentPort.postMessage({ gone: true })
})
watcher.on('error', (error) => parentPort.postMessage({ error: String(error?.message ?? error), code: error?.code }))
watcher.on('ready', () => parentPort.postMessage({ ready: true }))
parentPort.on('message', async (message) => {
  if (message !== 'close') return
  if (posting) clearImmediate(posting)
  await watcher.close()
  parentPort.postMessage({ closed: true })
})
