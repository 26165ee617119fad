import { mkdtemp, readFile, rm, truncate, unlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { App } from '../../src/app.ts'
import type { ContentRecord } from '../../src/content/store.ts'
import type { Layout } from '../../src/prerender/file-layout.ts'
import { Manifest } from '../../src/prerender/manifest.ts'
import { createOutput } from '../../src/prerender/output-files.ts'
import { createBuildApp, createRenderer } from '../../src/prerender/renderer.ts'
import { buildSite, createSiteBuilder } from '../../src/prerender/site-builder.ts'
import { feedFiles } from '../feeds/parse.ts'
import { buildOptions, fixtureApp, SAMPLE_NOW, testSite, writableApp } from '../helpers.ts'

// An update asks for each feed with the ETag of the answer last written to its file, so a language's ~10 MB
// calendar feed that an edit did not change is not joined, hashed and compared again (a 304 instead); a file that no
// longer holds that answer is asked for whole and written again.

const API = 'wp-json/calendar/events/v1'
const layout: Layout = {
  publicUrl: 'https://cdn.example.org',
  liveUrl: 'http://127.0.0.1:8089',
  apiRoot: '/wp-json',
  defaultLang: 'en',
  defaultPerPage: 9,
}

/** The build's real app over the reference tree, noting the status of every answer, and an output folder. */
async function withNotedApp(work: (app: App, statuses: number[], out: string) => Promise<void>): Promise<void> {
  const out = await mkdtemp(join(tmpdir(), 'almanac-feed-tag-'))
  try {
    const { store } = await fixtureApp('reference')
    const built = createBuildApp(store, { site: testSite(), perPage: 9, maxPerPage: 50 }, layout, () => SAMPLE_NOW)
    const statuses: number[] = []
    const fetch = async (request: Request) => {
      const response = await built.fetch(request)
      statuses.push(response.status)
      return response
    }
    await work({ ...built, fetch } as App, statuses, out)
  } finally {
    await rm(out, { recursive: true, force: true })
  }
}

const feed = { url: `${layout.liveUrl}/${API}/events.ics` }

describe('feeds asked again by a build', () => {
  it('are asked with the ETag last written, and a 304 leaves the file as it is; any other file is asked whole', () =>
    withNotedApp(async (app, statuses, out) => {
      const renderer = createRenderer(app, layout, createOutput(out, new Manifest(), true), new Map())
      const list = { url: `${layout.liveUrl}/${API}/events` }
      const file = await renderer.render(feed)
      const bytes = await readFile(join(out, file!))
      expect(await renderer.render(feed)).toBe(file)
      await renderer.render(list)
      await renderer.render(list)
      expect(statuses).toEqual([200, 304, 200, 200])
      expect(await readFile(join(out, file!))).toEqual(bytes)
    }))

  it('ask whole once the manifest is read again (a full build after a failed update), though the file is there', () =>
    withNotedApp(async (app, statuses, out) => {
      const tags = new Map()
      const first = createOutput(out, new Manifest(), true)
      const file = (await createRenderer(app, layout, first, tags).render(feed))!
      // The manifest as a later run reads it from disk: the same size, another digest (what an unfinished run left).
      const again = new Manifest([[file, { ...first.manifest.get(file)!, sha256: '0'.repeat(64) }]])
      const output = createOutput(out, again, true)
      await createRenderer(app, layout, output, tags).render(feed)
      expect(statuses).toEqual([200, 200])
      expect(output.manifest.get(file)).toEqual(first.manifest.get(file))
    }))

  it('writes again a feed file cut short or removed by hand, though its answer did not change', async () => {
    const app = await writableApp('feeds')
    const out = await mkdtemp(join(tmpdir(), 'almanac-feed-hand-'))
    const fresh = await mkdtemp(join(tmpdir(), 'almanac-feed-fresh-'))
    try {
      const builder = createSiteBuilder(buildOptions(app.store, out))
      await builder.full()
      const malay = join(out, `ms/${API}/events.ics`)
      const tamil = join(out, `ta/${API}/events.ics`)
      await truncate(malay, 100)
      await unlink(tamil)
      const changes: [ContentRecord | undefined, ContentRecord | undefined][] = []
      app.store.onChange((was, is) => changes.push([was, is]))
      const concert = join(app.content, 'events/concert.en.md')
      await writeFile(concert, (await readFile(concert, 'utf8')).replace('title: Winter Concert', 'title: Winter Gala'))
      await app.store.reload(['events/concert.en.md'])
      await builder.update(changes.splice(0))
      const after = await feedFiles(out)
      expect(after.get(`${API}/events.ics`)).toContain('SUMMARY:Winter Gala')
      await buildSite(buildOptions(app.store, fresh))
      expect(after).toEqual(await feedFiles(fresh))
    } finally {
      await rm(out, { recursive: true, force: true })
      await rm(fresh, { recursive: true, force: true })
      await rm(app.dir, { recursive: true, force: true })
    }
  })
})
