import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ContentRecord } from '../../src/content/store.ts'
import { buildSite, createSiteBuilder } from '../../src/prerender/site-builder.ts'
import { buildOptions, writableApp } from '../helpers.ts'
import { feedFiles } from './parse.ts'

// Second review of issue 15 (docs/feeds.md §6): after an event changes, an incremental build holds the same feed
// files as a fresh build of the same content: no file more, none less, each with the same text.

describe('an incremental build after an event of a category with no file in every language', () => {
  it('holds the feed files a fresh build holds', async () => {
    const app = await writableApp('feeds')
    const out = await mkdtemp(join(tmpdir(), 'almanac-review2-build-'))
    const fresh = await mkdtemp(join(tmpdir(), 'almanac-review2-fresh-'))
    try {
      const builder = createSiteBuilder(buildOptions(app.store, out))
      await builder.full()
      const changes: [ContentRecord | undefined, ContentRecord | undefined][] = []
      app.store.onChange((was, is) => changes.push([was, is]))
      // The Kolkata summit is in the Talks category (3), which has an English file only.
      const path = 'events/kolkata.en.md'
      const text = await readFile(join(app.content, path), 'utf8')
      await writeFile(join(app.content, path), text.replace('title: Three-Day Kolkata Summit', 'title: Kolkata Summit'))
      await app.store.reload([path])
      await builder.update(changes.splice(0))
      await buildSite(buildOptions(app.store, fresh))
      const [updated, built] = [await feedFiles(out), await feedFiles(fresh)]
      expect([...updated.keys()].sort()).toEqual([...built.keys()].sort())
      for (const [file, feed] of built) expect(updated.get(file), file).toBe(feed)
    } finally {
      for (const dir of [out, fresh, app.dir]) await rm(dir, { recursive: true, force: true })
    }
  })
})
