// chokidar for a watcher that keeps folders only (see watch-worker.mjs). Plain JavaScript, like the worker.
import { Readable } from 'node:stream'
import { FSWatcher } from 'chokidar'

/**
 * chokidar reads a folder again after every change in it, and it stats every entry it lists to tell
 * files from folders (its `alwaysStat`, which no option turns off): 10,000 lstat calls for one event
 * written into a folder of 10,000 events. They go through the process's shared pool of file-system
 * threads, where the server's own reads and writes queue behind them, and each builds a `Stats` for the
 * collector; an update's p99 rose by 4–6 ms with the watcher on. A folder's listing already says what
 * each entry is (`readdir` with file types), which is all a watcher of folders needs: files are never
 * watched here, so they are passed over unread, and a folder's entry carries its listing's type where
 * chokidar looks for stats. A link is still resolved by readdirp, as before.
 *
 * `_readdirp` is chokidar's own (5.0); should a release drop it, this override is never called and
 * chokidar stats as it did (test/content/folder-watcher.test.ts fails then, to say so).
 */
export class FolderWatcher extends FSWatcher {
  _readdirp(root, options) {
    const typed = super._readdirp(root, {
      ...options,
      alwaysStat: false,
      fileFilter: () => false,
      directoryFilter: (entry) => {
        entry.stats = entry.dirent
        return options.directoryFilter(entry)
      },
    })
    return typed && this._orStatted(typed, root, options)
  }

  /**
   * Where a file system gives no entry types (ext2 without `filetype`, some network and FUSE ones), Node
   * lstats each entry of a typed listing itself, and one gone meanwhile (an atomic save's temporary)
   * fails the whole listing: the folder would look empty, and chokidar would unwatch its folders. The
   * typed listing's folders are held until it ends whole; else the folder is listed chokidar's way.
   */
  _orStatted(typed, root, options) {
    const listing = new Readable({ objectMode: true, read() {} })
    const folders = []
    let partial = false
    typed.on('warn', (error) => {
      partial ||= error?.syscall === 'lstat'
    })
    typed.on('data', (entry) => folders.push(entry))
    typed.on('error', (error) => listing.destroy(error))
    typed.on('end', () => {
      const statted = partial ? super._readdirp(root, options) : undefined
      if (!statted) {
        for (const entry of folders) listing.push(entry)
        listing.push(null)
        return
      }
      statted.on('data', (entry) => listing.push(entry))
      statted.on('error', (error) => listing.destroy(error))
      statted.on('end', () => listing.push(null))
    })
    return listing
  }
}
