// The content watcher's own thread: one fs.watch per folder (a folder's watch reports every file
// added, changed, renamed or deleted in it, by name), so a tree of 40,000 files costs a handful of
// watches, not one watch, one stat and their closures per file (chokidar's way: 180 MB of heap at
// 10,000 events × 4 languages). Only the paths it sees cross over to the store; the store compares
// the whole tree with what it read shortly after every batch (src/content/watch.ts), so an event
// the platform drops or merges is caught there.
// Plain JavaScript: a worker starts without the TypeScript loader of the main thread.
import { lstatSync, readdirSync, watch } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { parentPort, workerData } from 'node:worker_threads'

const { dir, gatherMs } = workerData
/** Watched folders by absolute path. */
const folders = new Map()
/** Dotfiles (editors' temporary files among them) and backups (`name~`) are nobody's content. */
const ignored = (name) => name.startsWith('.') || name.endsWith('~')

let gathered = new Set()
let timer
const flush = () => {
  parentPort.postMessage({ paths: [...gathered] })
  gathered = new Set()
  timer = undefined
}
const gather = (path) => {
  gathered.add(relative(dir, path).split(sep).join('/'))
  timer ??= setTimeout(flush, gatherMs)
}

/** Watches `folder` and every folder below it (links are reported by the store, never followed). */
function watchTree(folder) {
  if (folders.has(folder)) return
  let watcher
  try {
    watcher = watch(folder, (_type, name) => changed(folder, name))
  } catch {
    return
  }
  watcher.on('error', () => unwatch(folder))
  folders.set(folder, watcher)
  for (const entry of entriesOf(folder))
    if (entry.isDirectory() && !ignored(entry.name)) watchTree(join(folder, entry.name))
}

function entriesOf(folder) {
  try {
    return readdirSync(folder, { withFileTypes: true })
  } catch {
    return []
  }
}

/** Stops watching `folder` and every folder below it. */
function unwatch(folder) {
  for (const [path, watcher] of folders)
    if (path === folder || path.startsWith(folder + sep)) {
      watcher.close()
      folders.delete(path)
    }
}

/** An entry of `folder` came, went or changed: its path is reported, and a new folder is watched too. */
function changed(folder, name) {
  if (!name) return gather(folder)
  const path = join(folder, String(name))
  if (relative(dir, path).split(sep).some(ignored)) return
  gather(path)
  let stats
  try {
    stats = lstatSync(path)
  } catch {
    return unwatch(path)
  }
  if (stats.isDirectory()) watchTree(path)
}

watchTree(dir)
parentPort.postMessage({ ready: true, watches: folders.size })
parentPort.on('message', (message) => {
  if (message !== 'close') return
  if (timer) clearTimeout(timer)
  for (const watcher of folders.values()) watcher.close()
  folders.clear()
  parentPort.postMessage({ closed: true })
})
