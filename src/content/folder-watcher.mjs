// chokidar for a watcher that keeps folders only (see watch-worker.mjs). Plain JavaScript, like the worker.
import { lstat, opendir } from 'node:fs/promises'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { FSWatcher } from 'chokidar'

/** Entries read from a folder per call: between two, the thread hears what its folders' watches report. */
const BATCH = 256

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
  _readdirp(root, options) {
    if (this.closed) return undefined
    const listing = Readable.from(foldersIn(root, options?.directoryFilter ?? (() => true)))
    this._streams.add(listing)
    listing.once('end', () => this._streams.delete(listing))
    listing.once('close', () => this._streams.delete(listing))
    return listing
  }
}

/**
 * The folders in `root` as chokidar's entries that `wanted` takes. A link is never one (the watcher
 * follows none). Where the file system gives no types (ext2 without `filetype`, some network and FUSE
 * ones), an entry is lstat'ed, and one gone meanwhile (an atomic save's temporary) is passed over.
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
    for await (const dirent of folder) {
      const stats = typed(dirent) ? dirent : await lstat(join(root, dirent.name)).catch(() => undefined)
      if (!stats?.isDirectory()) continue
      const entry = { path: dirent.name, fullPath: join(root, dirent.name), basename: dirent.name, stats }
      if (wanted(entry)) yield entry
    }
  } catch (error) {
    if (!NORMAL.has(error?.code)) throw error
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
