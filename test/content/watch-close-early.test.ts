import { rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { watchContent } from '../../src/content/watch.ts'
import { writableApp } from '../helpers.ts'

// The real watcher closed while it takes its first look at the tree (or just as that ends): once close() has
// resolved, nothing it heard before, and nothing written after, reaches the store.

const EVENT = '---\nid: 600\ntitle: After Close\nstart_date: 2026-12-20 18:00:00\nend_date: 2026-12-20 20:00:00\n---\n'

describe('a watch closed while it starts', () => {
  for (const wait of [0, 20, 100])
    it(`touches no store after close() resolved (closed ${wait} ms in)`, async () => {
      const app = await writableApp('reference')
      try {
        let changes = 0
        app.store.onChange(() => changes++)
        const watching = watchContent(app.store)
        await new Promise((resolve) => setTimeout(resolve, wait))
        await writeFile(join(app.content, 'events', 'after-close.en.md'), EVENT)
        await watching.close()
        const before = changes
        await writeFile(join(app.content, 'events', 'after-close-2.en.md'), EVENT.replace('600', '601'))
        await new Promise((resolve) => setTimeout(resolve, 400))
        expect(changes - before).toBe(0)
      } finally {
        await rm(app.dir, { recursive: true, force: true })
      }
    })
})
