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
): Stop {
  let timer: NodeJS.Timeout | undefined
  let pending: [ContentRecord | undefined, ContentRecord | undefined][] = []
  let running: Promise<void> = Promise.resolve()
  let failed = false
  // A change of media files is no record's: which files show it is not followed (image sizes), so the next run is a
  // full build, as after a failure. A commit that moved files' dates is told as changes of their records.
  let whole = false
  const gather = () => {
    timer ??= setTimeout(() => {
      timer = undefined
      const changes = pending
      const full = whole
      pending = []
      whole = false
      // After a run that failed, what is on disk is not known file by file: the next run is a full build.
      running = running
        .then(() => (failed || full ? builder.full() : builder.update(changes)))
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
  }
  store.onChange((before, after) => {
    pending.push([before, after])
    gather()
  })
  store.onBump(() => {
    whole = true
    gather()
  })
  const stop = async () => {
    if (timer) clearTimeout(timer)
    await running
  }
  const idle = async () => {
    for (;;) {
      while (timer) await new Promise((resolve) => setTimeout(resolve, GATHER_MS))
      await running
      if (!timer) return
    }
  }
  return Object.assign(stop, { idle })
}

/** Stops following the store once the update under way is done; `idle` waits for every change heard to be built. */
export type Stop = (() => Promise<void>) & { idle(): Promise<void> }
