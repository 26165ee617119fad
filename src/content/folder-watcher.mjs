// chokidar for a watcher that keeps folders only (see watch-worker.mjs). Plain JavaScript, like the worker.
import { lstat, opendir } from 'node:fs/promises'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { setTimeout as sleep, setImmediate as turn } from 'node:timers/promises'
import { FSWatcher } from 'chokidar'

/** Entries read from a folder per call: between two, the thread hears what its folders' watches report. */
const BATCH = 256

/**
 * Least time from the start of one listing of a folder to the start of the next. chokidar lists a folder
 * again as soon as a listing ends if anything changed in it meanwhile, so under a stream of writes (one
 * every few milliseconds) a folder of 40,000 records was listed back to back: 0.6–1.7 s of CPU over 500
 * creates, taken from a server pinned to one core. Spaced, a burst costs one listing per half second
 * (30–50 ms of CPU at 40,000 files), and chokidar's own throttle, counting the
 * changes meanwhile, still lists once more after the last. Only folders come of a listing, so only a
 * new or removed folder is heard later, by half a second at most: files are reported by name as they
 * change (watch-worker.mjs), and a new folder's path goes over to the store at once.
 */
const SPACING_MS = 500

/** Errors after which a folder is taken as it is now, empty or gone (readdirp's own list). */
const NORMAL = new Set(['ENOENT', 'EPERM', 'EACCES', 'ELOOP', 'ENOTDIR'])

/**
 * chokidar reads a folder again after every change in it, and its listing (readdirp) stats every
 * entry to tell files from folders (`alwaysStat`, which no option turns off): 40,000 lstat calls for
 * one event written into a folder of 40,000 files, through the process's shared pool of file-system
 * threads, where the server's own reads and writes queued behind them. A watcher of folders needs
 * only each entry's type, which the listing itself gives: this one reads a folder in batches, passes
 * files over unread, and hands chokidar its folders, each with its listed type where chokidar looks
 * for stats. Read in batches, the thread keeps hearing its watches meanwhile; readdirp in its typed
 * mode went through the 40,000 entries in one turn, and a served edit waited behind it.
 *
 * `_readdirp` is chokidar's own (5.0, declared by its types); should a release stop calling it, this
 * override is never used and chokidar stats as it did (test/content/folder-watcher.test.ts fails then).
 */
export class FolderWatcher extends FSWatcher {
  /** When each folder's last listing began (performance.now()), kept while it can still hold the next back. */
  #listedAt = new Map()
  #closing = new AbortController()

  _readdirp(root, options) {
    if (this.closed) return undefined
    const listing = Readable.from(this.#spaced(root, options?.directoryFilter ?? (() => true)))
    this._streams.add(listing)
    listing.once('end', () => this._streams.delete(listing))
    listing.once('close', () => this._streams.delete(listing))
    return listing
  }

  /** `foldersIn`, begun no sooner than SPACING_MS after the folder's previous listing began. */
  async *#spaced(root, wanted) {
    const wait = (this.#listedAt.get(root) ?? Number.NEGATIVE_INFINITY) + SPACING_MS - performance.now()
    if (wait > 0) await sleep(wait, undefined, { signal: this.#closing.signal }).catch(() => {})
    if (this.closed) return
    const now = performance.now()
    for (const [folder, at] of this.#listedAt) if (now - at >= SPACING_MS) this.#listedAt.delete(folder)
    this.#listedAt.set(root, now)
    yield* foldersIn(root, wanted)
  }

  close() {
    this.#closing.abort()
    return super.close()
  }
}

/**
 * The folders in `root` as chokidar's entries that `wanted` takes. A link is never one (the watcher
 * follows none). Where the file system gives no types (ext2 without `filetype`, some network and FUSE
 * ones), an entry is lstat'ed, and one gone meanwhile (an atomic save's temporary) is passed over.
 * Entries are taken from the listing's buffer without a promise each (`for await` over the folder
 * spent ~135 ms of CPU on 40,000 entries, this ~30–50 ms), and the thread takes a turn after each batch.
 */
export async function* foldersIn(root, wanted, open = opendir) {
  let folder
  try {
    folder = await open(root, { bufferSize: BATCH })
  } catch (error) {
    if (NORMAL.has(error?.code)) return
    throw error
  }
  try {
    for (let read = 1, dirent = folder.readSync(); dirent !== null; read++, dirent = folder.readSync()) {
      if (read % BATCH === 0) await turn()
      const stats = typed(dirent) ? dirent : await lstat(join(root, dirent.name)).catch(() => undefined)
      if (!stats?.isDirectory()) continue
      const entry = { path: dirent.name, fullPath: join(root, dirent.name), basename: dirent.name, stats }
      if (wanted(entry)) yield entry
    }
  } catch (error) {
    if (!NORMAL.has(error?.code)) throw error
  } finally {
    await folder.close().catch(() => {})
  }
}

/** Whether a listed entry says what it is (DT_UNKNOWN says nothing). */
function typed(dirent) {
  return (
    dirent.isFile() ||
    dirent.isDirectory() ||
    dirent.isSymbolicLink() ||
    dirent.isFIFO() ||
    dirent.isSocket() ||
    dirent.isBlockDevice() ||
    dirent.isCharacterDevice()
  )
}
