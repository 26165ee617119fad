import { FSWatcher } from 'chokidar'

/** chokidar that lists folders without a stat per entry and passes files over (folder-watcher.mjs). */
export declare class FolderWatcher extends FSWatcher {}
