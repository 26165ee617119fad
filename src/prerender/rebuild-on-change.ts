import type { ContentRecord, Store } from '../content/store.ts'
import type { BuildResult, SiteBuilder } from './site-builder.ts'

/** How long changes are gathered before an update: a checkout of many files is one update. */
const GATHER_MS = 50

/**
 * Keeps a built site current: after every change the store hears (writes through the API, files
 * edited on disk), only the files the change touches are rendered again, each replaced atomically.
 */
export function rebuildOnChange(
  store: Store,
  builder: SiteBuilder,
  report: (result: BuildResult) => void,
  onError: (error: Error) => void,
): () => Promise<void> {
  let timer: NodeJS.Timeout | undefined
  let pending: [ContentRecord | undefined, ContentRecord | undefined][] = []
  let running: Promise<void> = Promise.resolve()
  let failed = false
  store.onChange((before, after) => {
    pending.push([before, after])
    timer ??= setTimeout(() => {
      timer = undefined
      const changes = pending
      pending = []
      // After a run that failed, what is on disk is not known file by file: the next run is a full build.
      running = running
        .then(() => (failed ? builder.full() : builder.update(changes)))
        .then(
          (result) => {
            failed = false
            report(result)
          },
          (error: Error) => {
            failed = true
            onError(error)
          },
        )
    }, GATHER_MS)
  })
  return async () => {
    if (timer) clearTimeout(timer)
    await running
  }
}
