import { rm } from 'node:fs/promises'
import { afterEach, beforeEach } from 'vitest'
import { watchContent, type ContentWatch } from '../../src/content/watch.ts'
import { writableApp } from '../helpers.ts'

export type WatchedApp = Awaited<ReturnType<typeof writableApp>>

/**
 * A writable copy of the reference tree with the real watcher on it, fresh for every test and
 * removed after it; `prepare` runs before the watcher starts (to count changes, say).
 */
export function useWatchedApp(prepare: (app: WatchedApp) => void): void {
  let app: WatchedApp
  let watching: ContentWatch
  beforeEach(async () => {
    app = await writableApp('reference')
    prepare(app)
    watching = watchContent(app.store)
    await watching.ready
  })
  afterEach(async () => {
    await watching.close()
    await rm(app.dir, { recursive: true, force: true })
  })
}
