// chokidar for a watcher that keeps folders only (see watch-worker.mjs). Plain JavaScript, like the worker.
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
    return super._readdirp(root, {
      ...options,
      alwaysStat: false,
      fileFilter: () => false,
      directoryFilter: (entry) => {
        entry.stats = entry.dirent
        return options.directoryFilter(entry)
      },
    })
  }
}
