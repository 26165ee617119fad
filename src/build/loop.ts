import type { Store } from '../content/store.ts'
import { buildSite, type BuildOptions, type BuildResult } from './build.ts'

/** How long changes are gathered before a rebuild: a checkout of many files is one rebuild. */
const GATHER_MS = 50

/**
 * Rebuilds after every change the store hears (writes through the API, files edited on disk).
 * Only the files whose content changed are written, each replaced atomically.
 */
export function rebuildOnChange(store: Store, options: BuildOptions, report: (result: BuildResult) => void, onError: (error: Error) => void): () => Promise<void> {
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> = Promise.resolve()
  store.onChange(() => {
    timer ??= setTimeout(() => {
      timer = undefined
      running = running.then(() => buildSite(options).then(report)).catch(onError)
    }, GATHER_MS)
  })
  return async () => {
    if (timer) clearTimeout(timer)
    await running
  }
}
