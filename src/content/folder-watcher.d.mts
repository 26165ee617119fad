import type { Dirent, Stats } from 'node:fs'
import type { opendir } from 'node:fs/promises'
import { FSWatcher } from 'chokidar'

/** chokidar that lists folders without a stat per entry and passes files over (folder-watcher.mjs). */
export declare class FolderWatcher extends FSWatcher {}

/** A folder as chokidar's listing gives it. */
export interface FolderEntry {
  path: string
  fullPath: string
  basename: string
  stats: Dirent | Stats
}

/** The folders in `root` that `wanted` takes, read in batches; an entry of no listed type is lstat'ed. */
export declare function foldersIn(
  root: string,
  wanted: (entry: FolderEntry) => boolean,
  open?: typeof opendir,
): AsyncGenerator<FolderEntry>
