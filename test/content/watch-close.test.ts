import { describe, expect, it } from 'vitest'
import type { WatchListener } from '../../src/content/store/driver.ts'
import { createMemoryDriver } from '../../src/content/store/memory-driver.ts'
import { createStore } from '../../src/content/store.ts'
import { watchContent } from '../../src/content/watch.ts'
import { referenceFiles } from './trees.ts'

// A closed watch leaves its store alone. The watcher's thread goes on telling names it heard until it has
// closed, and a re-read under way when close is called would set the whole-tree comparison again: either
// reached a store whose owner had let it go (in the tests, one whose folder was being removed, so every
// record left it and the next test counted a dozen changes it never made).

const LATE = '---\nid: 500\ntitle: Told Late\nstart_date: 2026-12-20 18:00:00\nend_date: 2026-12-20 20:00:00\n---\n'
const settled = () => new Promise((resolve) => setTimeout(resolve, 400))

async function storeWithWatch(closing: (listener: WatchListener) => Promise<void> | void) {
  const driver = createMemoryDriver(await referenceFiles())
  const store = await createStore(driver, { defaultLanguage: 'en', fallback: true })
  let changes = 0
  store.onChange(() => changes++)
  let listener!: WatchListener
  const watching = watchContent(store, undefined, (told) => {
    listener = told
    return { ready: Promise.resolve(), close: async () => closing(told) }
  })
  await watching.ready
  return { driver, store, watching, listener: () => listener, changes: () => changes }
}

describe('a watch that is closed', () => {
  it('passes on no name its watcher tells while closing', async () => {
    const late = await storeWithWatch(async (told) => {
      await late.driver.write('events/late.en.md', LATE)
      told.changed(['events/late.en.md', 'events'])
    })
    await late.watching.close()
    await settled()
    expect(late.store.get('events', 500)).toBeUndefined()
    expect(late.changes()).toBe(0)
  })

  it('passes on no name told after it closed, and compares no tree', async () => {
    const late = await storeWithWatch(() => {})
    await late.watching.close()
    await late.driver.write('events/late.en.md', LATE)
    late.listener().changed(['events/late.en.md', 'events'])
    await settled()
    expect(late.store.get('events', 500)).toBeUndefined()
    expect(late.changes()).toBe(0)
  })

  it('does not compare the tree when its watcher says it is ready only once closing', async () => {
    let ready!: () => void
    const files = await referenceFiles()
    const driver = createMemoryDriver(files)
    const store = await createStore(driver, { defaultLanguage: 'en', fallback: true })
    let changes = 0
    store.onChange(() => changes++)
    const watching = watchContent(store, undefined, () => ({
      ready: new Promise<void>((resolve) => (ready = resolve)),
      close: async () => {
        await driver.write('events/late.en.md', LATE)
        ready() // the first look at the tree ended just as close() was called
      },
    }))
    await watching.close()
    await settled()
    expect(store.get('events', 500)).toBeUndefined()
    expect(changes).toBe(0)
  })

  it('closes once, however often close() is called', async () => {
    let closes = 0
    const store = await createStore(createMemoryDriver(await referenceFiles()), {
      defaultLanguage: 'en',
      fallback: true,
    })
    const watching = watchContent(store, undefined, () => ({
      ready: Promise.resolve(),
      close: async () => void closes++,
    }))
    await watching.ready
    await Promise.all([watching.close(), watching.close()])
    await watching.close()
    expect(closes).toBe(1)
  })

  it('does not compare the tree after a re-read that was under way when it closed', async () => {
    const late = await storeWithWatch(() => {})
    await late.driver.write('events/late.en.md', LATE)
    late.listener().changed(['events']) // a folder: the re-read asks for the whole tree to be compared
    const closed = late.watching.close()
    await late.driver.write('events/later.en.md', LATE.replace('500', '501'))
    await closed
    await settled()
    expect(late.store.get('events', 501)).toBeUndefined()
  })
})
