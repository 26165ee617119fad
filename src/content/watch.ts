import { relative, sep } from 'node:path'
import { watch } from 'chokidar'
import type { Store } from './store.ts'

/** A running watch over a content folder. */
export interface ContentWatch {
  /** Resolves once the watcher has seen the whole tree. */
  ready: Promise<void>
  close(): Promise<void>
}

/** How long to gather events before reloading: a `git checkout` arrives as one batch, not hundreds. */
const GATHER_MS = 25

/**
 * Follows every add, change, rename and delete under the content folder and hands the paths to
 * the store, which re-reads only those files. Temporary files of atomic saves (the server's and
 * editors') and other dotfiles are ignored; a rename is a delete plus an add.
 */
export function watchContent(store: Store, onError: (error: Error) => void = () => {}): ContentWatch {
  const watcher = watch(store.dir, {
    ignoreInitial: true,
    ignored: (path: string) => path !== store.dir && relative(store.dir, path).split(sep).some((part) => part.startsWith('.') || part.endsWith('~')),
  })
  let gathered = new Set<string>()
  let timer: NodeJS.Timeout | undefined
  let running = Promise.resolve()
  const flush = () => {
    const paths = [...gathered]
    gathered = new Set()
    timer = undefined
    running = running.then(() => store.reload(paths)).catch(onError)
  }
  const gather = (path: string) => {
    gathered.add(relative(store.dir, path).split(sep).join('/'))
    timer ??= setTimeout(flush, GATHER_MS)
  }
  watcher.on('add', gather).on('change', gather).on('unlink', gather).on('error', (error) => onError(error as Error))
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()))
  return {
    ready,
    async close() {
      if (timer) clearTimeout(timer)
      await watcher.close()
      await running
    },
  }
}
