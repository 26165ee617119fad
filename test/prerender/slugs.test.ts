import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../src/app.ts'
import { buildSite } from '../../src/prerender/site-builder.ts'
import { createStore, type Store } from '../../src/content/store.ts'
import { SAMPLE_NOW, testSite } from '../helpers.ts'

const event = (id: number, slug: string, start: string) =>
  `---\nid: ${id}\ntitle: Event ${id}\nslug: ${slug}\nstatus: publish\ndate: 2026-11-01 10:00:00\nauthor: 1\nstart_date: ${start} 09:00:00\nend_date: ${start} 10:00:00\ntimezone: UTC\n---\nBody of ${id}\n`

let dir: string
let store: Store

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'almanac-slugs-'))
  await mkdir(join(dir, 'content', 'events'), { recursive: true })
  // 202's slug is "shared" in English, and Malay falls back to it; 201 names "shared" in its own
  // Malay file. The Malay slug is 201's: no clash is reported, since 202 has no Malay file.
  await writeFile(join(dir, 'content/events/aa-b.en.md'), event(201, 'event-b', '2026-11-27'))
  await writeFile(
    join(dir, 'content/events/aa-b.ms.md'),
    '---\ntitle: Acara B\nslug: shared\n---\nB dalam bahasa Melayu\n',
  )
  await writeFile(join(dir, 'content/events/zz-a.en.md'), event(202, 'shared', '2026-11-28'))
  store = await createStore(join(dir, 'content'), { defaultLanguage: 'en', fallback: true })
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('by-slug files', () => {
  it.each([0, 1])('hold the record the live server finds by that slug (%i workers)', async (workers) => {
    expect(store.problems()).toEqual([])
    const site = testSite()
    const live = createApp({ store, site, perPage: 9, maxPerPage: 50, fallback: true, now: () => SAMPLE_NOW })
    const answer = await live.fetch(
      new Request(`${site.url}/ms${site.apiRoot}/calendar/events/v1/events/by-slug/shared`),
    )
    expect((await answer.json()).id).toBe(201)
    const out = join(dir, `dist-${workers}`)
    await buildSite({
      store,
      site,
      out,
      publicUrl: 'https://cdn.example.org',
      perPage: 9,
      maxPerPage: 50,
      now: () => SAMPLE_NOW,
      workers,
    })
    const read = async (file: string) => JSON.parse(await readFile(join(out, file), 'utf8')) as { id: number }
    expect((await read('ms/wp-json/calendar/events/v1/events/by-slug/shared.json')).id).toBe(201)
    expect((await read('wp-json/calendar/events/v1/events/by-slug/shared.json')).id).toBe(202)
  })
})
