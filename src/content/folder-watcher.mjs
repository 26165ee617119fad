// chokidar for a watcher that keeps folders only (see watch-worker.mjs). Plain JavaScript, like the worker.
import { lstat, opendir, readdir } from 'node:fs/promises'
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
 * follows none). Where a file system gives no types (ext2 without `filetype`, some network and FUSE
 * ones), Node's listing lstats each entry as it reads a batch, and one gone meanwhile (an atomic save's
 * temporary) fails the read: the folder is then listed again by name, the rest lstat'ed here and the
 * gone passed over. Ended there, the listing would have made chokidar drop every folder not reached.
 */
export async function* foldersIn(root, wanted, open = opendir) {
  let folder
  try {
    folder = await open(root, { bufferSize: BATCH })
  } catch (error) {
    if (NORMAL.has(error?.code)) return
    throw error
  }
  const given = new Set()
  let entryGone = false
  try {
    for await (const dirent of folder) {
      const stats = typed(dirent) ? dirent : await lstatOrNone(join(root, dirent.name))
      const entry = folderEntry(root, dirent.name, stats)
      if (!entry || !wanted(entry)) continue
      given.add(entry.basename)
      yield entry
    }
  } catch (error) {
    if (!NORMAL.has(error?.code)) throw error
    entryGone = error.code === 'ENOENT' && error.path !== root
  }
  if (entryGone) yield* foldersByName(root, wanted, given)
}

/** The folders in `root` not `given` yet, listed by name and each lstat'ed. */
async function* foldersByName(root, wanted, given) {
  let names
  try {
    names = await readdir(root)
  } catch (error) {
    if (NORMAL.has(error?.code)) return
    throw error
  }
  for (const name of names) {
    if (given.has(name)) continue
    const entry = folderEntry(root, name, await lstatOrNone(join(root, name)))
    if (entry && wanted(entry)) yield entry
  }
}

/** chokidar's entry for `name` in `root` when its stats (none: it is gone) say it is a folder. */
function folderEntry(root, name, stats) {
  if (!stats?.isDirectory()) return undefined
  return { path: name, fullPath: join(root, name), basename: name, stats }
}

/** An entry's lstat, or undefined once it is gone (or cannot be looked at). */
function lstatOrNone(path) {
  return lstat(path).catch(() => undefined)
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
