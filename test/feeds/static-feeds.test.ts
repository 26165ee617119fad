import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ContentRecord } from '../../src/content/store.ts'
import { buildSite, createSiteBuilder } from '../../src/prerender/site-builder.ts'
import { feedFiles } from './parse.ts'
import { buildOptions, call, writableApp } from '../helpers.ts'

// The feeds of a static build (docs/feeds.md): the whole calendar and each category, tag, venue and organizer in
// every language, the same feeds the live server answers, kept current by updates.

const API = 'wp-json/calendar/events/v1'
const PREFIXES = ['', 'ms/', 'ta/', 'zh-hans/']
const SCOPED = ['categories/2', 'categories/3', 'tags/4', 'venues/10', 'organizers/12']

/** A feed without its SOURCE, the one line where the static file and the live answer differ. */
const withoutSource = (text: string) => text.replace(/^SOURCE.*\r\n( .*\r\n)*/m, '')

async function withBuild(work: (app: Awaited<ReturnType<typeof writableApp>>, out: string) => Promise<void>) {
  const app = await writableApp('feeds')
  const out = await mkdtemp(join(tmpdir(), 'almanac-feed-build-'))
  try {
    await work(app, out)
  } finally {
    await rm(out, { recursive: true, force: true })
    await rm(app.dir, { recursive: true, force: true })
  }
}

describe('the feeds of a static build', () => {
  it('are the live feeds, for the calendar and each public category, tag, venue and organizer, in every language', async () => {
    await withBuild(async (app, out) => {
      await buildSite(buildOptions(app.store, out))
      const files = await feedFiles(out)
      const expected = PREFIXES.flatMap((prefix) => [
        `${prefix}${API}/events.ics`,
        ...SCOPED.map((scope) => `${prefix}${API}/${scope}/events.ics`),
      ])
      expect([...files.keys()].sort()).toEqual(expected.sort())
      for (const [file, text] of files) {
        const live = await call(app, `/${file}`)
        expect(live.status, file).toBe(200)
        expect(withoutSource(text), file).toBe(withoutSource(live.text))
      }
      expect(files.get(`ms/${API}/events.ics`)).toContain(
        `SOURCE;VALUE=URI:https://cdn.example.org/ms/${API.slice(0, 20)}`,
      )
      const headers = await readFile(join(out, '_headers'), 'utf8')
      expect(headers).toContain(`/ms/${API}/:kind/:id/events.ics\n  Content-Type: text/calendar; charset=utf-8\n`)
    })
  })

  it('an edit rewrites the feeds it touches, removes the feed of a venue no longer public, and ends as a fresh build', async () => {
    await withBuild(async (app, out) => {
      const builder = createSiteBuilder(buildOptions(app.store, out))
      await builder.full()
      const before = await feedFiles(out)
      const changes: [ContentRecord | undefined, ContentRecord | undefined][] = []
      app.store.onChange((was, is) => changes.push([was, is]))
      const concert = join(app.content, 'events/concert.en.md')
      const text = await readFile(concert, 'utf8')
      await writeFile(concert, text.replace('title: Winter Concert', 'title: Winter Gala').replace('[2]', '[3]'))
      const hall = join(app.content, 'venues/hall.en.md')
      await writeFile(
        hall,
        (await readFile(hall, 'utf8')).replace('slug: community-hall', 'slug: community-hall\nstatus: draft'),
      )
      await app.store.reload(['events/concert.en.md', 'venues/hall.en.md'])
      await builder.update(changes.splice(0))
      const after = await feedFiles(out)
      expect(after.get(`${API}/events.ics`)).toContain('SUMMARY:Winter Gala')
      expect(after.get(`${API}/categories/3/events.ics`)).toContain('SUMMARY:Winter Gala')
      expect(after.get(`${API}/categories/2/events.ics`)).not.toContain('Winter')
      expect(after.has(`${API}/venues/10/events.ics`)).toBe(false)
      expect(before.has(`${API}/venues/10/events.ics`)).toBe(true)
      const fresh = await mkdtemp(join(tmpdir(), 'almanac-feed-fresh-'))
      try {
        await buildSite(buildOptions(app.store, fresh))
        expect(after).toEqual(await feedFiles(fresh))
      } finally {
        await rm(fresh, { recursive: true, force: true })
      }
    })
  })
})
