import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { occurrenceId } from '../../src/content/model/recurrence.ts'
import type { ContentRecord } from '../../src/content/store.ts'
import { buildSite, createSiteBuilder } from '../../src/prerender/site-builder.ts'
import { buildOptions, writableApp } from '../helpers.ts'

// The static build of test/fixtures/series: every occurrence is a file of its own, by id in every
// language and by slug; an edit of one series rewrites its files and the list pages it changes, and
// no other event's file.

const API = 'wp-json/calendar/events/v1'
const PREFIXES = ['', 'ms/', 'ta/', 'zh-hans/']

async function tree(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name).slice(dir.length + 1)
    if (path !== 'manifest.json') out.set(path, (await readFile(join(dir, path))).toString('base64'))
  }
  return out
}

async function withBuild(work: (app: Awaited<ReturnType<typeof writableApp>>, out: string) => Promise<void>) {
  const app = await writableApp('series')
  const out = await mkdtemp(join(tmpdir(), 'almanac-series-build-'))
  try {
    await work(app, out)
  } finally {
    await rm(out, { recursive: true, force: true })
    await rm(app.dir, { recursive: true, force: true })
  }
}

describe('the static build of series', () => {
  it('writes every occurrence by id in every language, the series, and the occurrences by slug', async () => {
    await withBuild(async (app, out) => {
      await buildSite(buildOptions(app.store, out))
      const files = await tree(out)
      const occurrences = app.store.events().filter((record) => record.series)
      expect(occurrences.length).toBeGreaterThan(100)
      for (const prefix of PREFIXES) {
        for (const record of [...occurrences, app.store.get('events', 30)!, app.store.get('events', 40)!])
          expect(files.has(`${prefix}${API}/events/${record.id}.json`), `${prefix} ${record.id}`).toBe(true)
      }
      const christmas = occurrenceId(30, '2026-12-22 09:00:00')
      const en = JSON.parse(
        Buffer.from(files.get(`${API}/events/by-slug/tuesday-yoga-2026-12-22.json`)!, 'base64').toString(),
      )
      expect(en).toMatchObject({ id: christmas, title: 'Christmas Yoga', series: { id: 30 } })
      const ms = JSON.parse(
        Buffer.from(files.get(`ms/${API}/events/by-slug/yoga-selasa-2026-12-22.json`)!, 'base64').toString(),
      )
      expect(ms).toMatchObject({ id: christmas, title: 'Yoga Krismas' })
      const series = JSON.parse(Buffer.from(files.get(`${API}/events/30.json`)!, 'base64').toString())
      expect(series.recurrence.next).toHaveLength(5)
      expect(files.has(`${API}/events/${occurrenceId(30, '2026-12-29 09:00:00')}.json`)).toBe(false)
    })
  })

  it('renders the same files in worker threads as on the main thread', async () => {
    await withBuild(async (app, out) => {
      const other = await mkdtemp(join(tmpdir(), 'almanac-series-workers-'))
      try {
        await buildSite(buildOptions(app.store, out, { languages: ['en', 'ms'] }))
        await buildSite(buildOptions(app.store, other, { workers: 2, languages: ['en', 'ms'] }))
        expect(await tree(other)).toEqual(await tree(out))
      } finally {
        await rm(other, { recursive: true, force: true })
      }
    })
  })

  it('an edit of one series rewrites its files and the lists it changes, no other event, and ends as a fresh build', async () => {
    await withBuild(async (app, out) => {
      const builder = createSiteBuilder(buildOptions(app.store, out))
      await builder.full()
      const before = await tree(out)
      const changes: [ContentRecord | undefined, ContentRecord | undefined][] = []
      app.store.onChange((was, is) => changes.push([was, is]))
      const path = join(app.content, 'events/market.en.md')
      const text = await readFile(path, 'utf8')
      await writeFile(
        path,
        text.replace('title: Night Market', 'title: Night Bazaar').replace('[2027-02-06]', '[2027-02-06, 2027-04-03]'),
      )
      await app.store.reload(['events/market.en.md'])
      const result = await builder.update(changes.splice(0))
      const after = await tree(out)
      const changed = [...new Set([...before.keys(), ...after.keys()])].filter(
        (key) => before.get(key) !== after.get(key),
      )
      // What the update wrote or removed is what differs, and besides the market's files only lists differ.
      expect(result.written + result.removed).toBe(changed.length)
      const others = changed.filter((key) => !key.includes('/night-market') && !/events\/40\d*\.json$/.test(key))
      expect(
        // Feeds hold the series too: the calendar's, and its venue's (docs/feeds.md).
        others.every(
          (key) => key === 'slugs.json' || /events(\/page\/\d+)?\.json$/.test(key) || key.endsWith('events.ics'),
        ),
        others.join(),
      ).toBe(true)
      const byId = changed.map((key) => /events\/(\d+)\.json$/.exec(key)?.[1]).filter((id) => id !== undefined)
      expect(byId.length).toBeGreaterThan(0)
      expect(
        byId.every((id) => id === '40' || (id.startsWith('40') && id.length === 11)),
        byId.join(),
      ).toBe(true)
      const bySlug = changed.filter((key) => key.includes('/events/by-slug/'))
      expect(
        bySlug.every((key) => key.includes('/night-market')),
        bySlug.join(),
      ).toBe(true)
      // Removed: the excluded occurrence, in every language, by id and by slug.
      const excluded = occurrenceId(40, '2027-04-03 18:00:00')
      for (const prefix of PREFIXES) expect(after.has(`${prefix}${API}/events/${excluded}.json`)).toBe(false)
      expect(after.has(`${API}/events/by-slug/night-market-2027-04-03.json`)).toBe(false)
      // Every other event's file is as it was.
      for (const key of before.keys())
        if (/events\/(20|30\d*)\.json$/.test(key) || /by-slug\/(tuesday|yoga|winter)/.test(key))
          expect(after.get(key), key).toBe(before.get(key))
      const fresh = await mkdtemp(join(tmpdir(), 'almanac-series-fresh-'))
      try {
        await buildSite(buildOptions(app.store, fresh))
        expect(after).toEqual(await tree(fresh))
      } finally {
        await rm(fresh, { recursive: true, force: true })
      }
    })
  })
})
