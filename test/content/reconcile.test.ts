import { cpSync, unlinkSync, writeFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Store } from '../../src/content/store.ts'
import { watchContent, type ContentWatch } from '../../src/content/watch.ts'
import { call, testApp } from '../helpers.ts'
import { eventFile, eventually, loadStore, tempTree } from './trees.ts'

const BULK = 600
let tree: Awaited<ReturnType<typeof tempTree>>
let watching: ContentWatch | undefined
beforeEach(async () => {
  tree = await tempTree()
  // A tree big enough that the watcher takes a while to see it all.
  for (let i = 0; i < BULK; i++)
    await writeFile(join(tree.content, `events/bulk-${i}.en.md`), eventFile(1000 + i, `Bulk ${i}`))
})
afterEach(async () => {
  await watching?.close()
  watching = undefined
  await tree.cleanup()
})

const path = (name: string) => join(tree.content, name)
const appOf = (store: Store) => testApp(store)
const title = async (store: Store, id: number) => {
  const response = await call(appOf(store), `events/${id}`)
  return response.status === 200 ? (response.body.title as string) : response.status
}

describe('edits made while the server starts', () => {
  it('are served once the watcher is ready: files edited, added and removed after loading', async () => {
    const { store } = await loadStore(tree.content, true)
    // Right after loading, before any watcher exists: same-size edit, a new file, a removal, a new image.
    writeFileSync(path('events/plain-meetup.en.md'), eventFile(8, 'Plain Meetop'))
    writeFileSync(path('events/bulk-1.en.md'), eventFile(1001, 'Bulk X'))
    writeFileSync(path('events/added.en.md'), eventFile(800, 'Added Early'))
    unlinkSync(path('events/bulk-2.en.md'))
    cpSync(path('media/6-poster.png'), path('media/88-early.png'))
    watching = watchContent(store)
    // While the watcher is scanning the tree.
    writeFileSync(path('events/bulk-3.en.md'), eventFile(1003, 'Bulk Y'))
    writeFileSync(path('events/added-2.en.md'), eventFile(801, 'Added While Scanning'))
    unlinkSync(path('events/bulk-5.en.md'))
    await watching.ready
    expect(await title(store, 8)).toBe('Plain Meetop')
    expect(await title(store, 1001)).toBe('Bulk X')
    expect(await title(store, 800)).toBe('Added Early')
    expect(await title(store, 1002)).toBe(404)
    expect((await call(appOf(store), '/media/88-early.png')).status).toBe(200)
    await eventually(async () => {
      expect(await title(store, 1003)).toBe('Bulk Y')
      expect(await title(store, 801)).toBe('Added While Scanning')
      expect(await title(store, 1005)).toBe(404)
    })
    // Just after the watcher is ready.
    writeFileSync(path('events/bulk-6.en.md'), eventFile(1006, 'Bulk Z'))
    await eventually(async () => expect(await title(store, 1006)).toBe('Bulk Z'))
  })

  it('reports a broken file added while starting exactly once, and leaves the rest as loaded', async () => {
    const { store, problems } = await loadStore(tree.content, true)
    await writeFile(path('events/broken.en.md'), '---\ntitle: a: b\n---\n')
    const before = store.list('events')
    watching = watchContent(store)
    await watching.ready
    expect(problems).toEqual([
      { path: 'events/broken.en.md', line: 2, message: expect.stringMatching(/^cannot be read/) },
    ])
    expect(store.list('events')).toEqual(before)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(problems).toHaveLength(1)
  })
})
