import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { KINDS } from '../../src/content/model/kinds.ts'
import { createMemoryDriver, type MemoryDriver } from '../../src/content/store/memory-driver.ts'
import { createStore, type Store } from '../../src/content/store.ts'
import { watchContent, type ContentWatch } from '../../src/content/watch.ts'
import { FIXTURES } from '../helpers.ts'

// The watcher hears the server's own writes too. Comparing the whole tree with what the store read
// (one lstat a file: seconds at 40,000 files) after each of them held every following write: the
// writes benchmark went from p99 18 ms to 2 s. Only a change the store did not make is worth it.

const REFERENCE = join(FIXTURES, 'reference', 'content')
const OPTIONS = { defaultLanguage: 'en', fallback: true } as const
const EVENT = (title: string) =>
  `---\nid: 500\ntitle: ${title}\nstart_date: 2027-01-01 18:00:00\nend_date: 2027-01-01 23:00:00\n---\n`

let watching: ContentWatch | undefined
afterEach(async () => {
  vi.useRealTimers()
  await watching?.close()
  watching = undefined
})

/** A store over the reference tree in memory, watched; `scans` counts comparisons of the whole tree. */
async function watchedStore(): Promise<{ driver: MemoryDriver; store: Store; scans: () => number }> {
  const files: Record<string, string> = {}
  for (const kind of KINDS)
    for (const name of await readdir(join(REFERENCE, kind)).catch(() => []))
      files[`${kind}/${name}`] = await readFile(join(REFERENCE, kind, name), 'utf8')
  const driver = createMemoryDriver(files)
  let scans = 0
  const compare = driver.changed.bind(driver)
  driver.changed = (texts, media) => {
    scans++
    return compare(texts, media)
  }
  const store = await createStore(driver, OPTIONS)
  watching = watchContent(store, undefined, (listener) => driver.watch(listener))
  await watching.ready
  return { driver, store, scans: () => scans }
}

/** Lets the watcher hear what was written, and runs whatever it set a timer for. */
async function afterTheWatcher(): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await new Promise((resolve) => setImmediate(resolve))
    await vi.advanceTimersByTimeAsync(1_000)
  }
}

describe('the watcher and the store’s own writes', () => {
  it('does not compare the whole tree again when all it heard is what the store wrote itself', async () => {
    const { store, scans } = await watchedStore()
    expect(scans()).toBe(1) // once when ready
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    for (const title of ['Written', 'Written again'])
      await store.commit('events', 'written', { en: { data: yamlOf(title), body: '' } })
    await store.commit('events', 'written', { en: null })
    await afterTheWatcher()
    expect(scans()).toBe(1)
  })

  it('still compares the whole tree after a change made behind its back, and serves it', async () => {
    const { driver, store, scans } = await watchedStore()
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    await driver.write('events/added.en.md', EVENT('Behind Its Back'))
    await afterTheWatcher()
    expect(scans()).toBe(2)
    expect(store.get('events', 500)?.stem).toBe('added')
  })

  it('lets a write through while the whole tree is being compared', async () => {
    const { driver, store } = await watchedStore()
    let finish: (paths: string[]) => void = () => {}
    driver.changed = () => new Promise((resolve) => (finish = resolve))
    const reconciled = store.reconcile()
    try {
      const commit = store.commit('events', 'written', { en: { data: yamlOf('During'), body: '' } })
      const held = new Promise<string>((resolve) =>
        setTimeout(() => resolve('held behind the comparison'), 5_000).unref(),
      )
      const written = await Promise.race([commit, held])
      expect(typeof written === 'string' ? written : written?.source.data.title).toBe('During')
    } finally {
      finish([])
      await reconciled
    }
  })
})

function yamlOf(title: string): Record<string, unknown> {
  return { id: 501, title, start_date: '2027-01-02 10:00:00', end_date: '2027-01-02 12:00:00' }
}
