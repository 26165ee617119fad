import { readdir, readFile, rm, mkdtemp } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../src/prerender/site-builder.ts'
import { staticUrl, type Layout } from '../../src/prerender/file-layout.ts'
import { publicJobs } from '../../src/prerender/public-urls.ts'
import { answer } from '../../src/cli/preview.ts'
import { createApp } from '../../src/app.ts'
import { as, call, json, SAMPLE_NOW, testSite, writableApp } from '../helpers.ts'

let app: Awaited<ReturnType<typeof writableApp>>
let out: string
let server: Server
let host: string
const PUBLIC = 'https://cdn.example.org/calendar'
const site = testSite()
const layout: Layout = {
  publicUrl: PUBLIC,
  liveUrl: site.url,
  apiRoot: site.apiRoot,
  defaultLang: 'en',
  defaultPerPage: 9,
}
// Rendered in two worker threads, as a large site is: the answers must not depend on where they are rendered.
// With the per_page=50 copies of the event lists (off by default), so that they are compared too.
const build = () =>
  buildSite({
    store: app.store,
    site,
    out,
    publicUrl: PUBLIC,
    perPage: 9,
    maxPerPage: 50,
    now: () => SAMPLE_NOW,
    workers: 2,
    widePages: true,
  })

beforeAll(async () => {
  app = await writableApp('reference')
  out = await mkdtemp(join(tmpdir(), 'almanac-dist-'))
  await build()
  server = createServer((req, res) => void answer(out, req, res))
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  host = `http://127.0.0.1:${(server.address() as { port: number }).port}`
})
afterAll(async () => {
  server.close()
  await rm(out, { recursive: true, force: true })
  await rm(app.dir, { recursive: true, force: true })
})

/** What a live answer should be in the static files: every link in it, wherever it sits, through `staticUrl`. */
function toStaticLinks(layout: Layout, value: unknown): unknown {
  if (typeof value === 'string') return staticUrl(layout, value)
  if (Array.isArray(value)) return value.map((item) => toStaticLinks(layout, item))
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toStaticLinks(layout, item)]))
  return value
}

async function allFiles(dir: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(join(dir, prefix), { withFileTypes: true })
  const nested = await Promise.all(
    entries.map((e) => (e.isDirectory() ? allFiles(dir, join(prefix, e.name)) : [join(prefix, e.name)])),
  )
  return nested.flat()
}

describe('almanac build', () => {
  it('answers every public GET from a plain static server as the live server does, links aside', async () => {
    const live = createApp({
      store: app.store,
      site,
      perPage: 9,
      maxPerPage: 50,
      fallback: true,
      now: () => SAMPLE_NOW,
    })
    const jobs = await publicJobs(
      live,
      app.store,
      {
        liveUrl: site.url,
        apiRoot: site.apiRoot,
        defaultLang: 'en',
        perPage: 9,
        bulkPerPage: 50,
      },
      SAMPLE_NOW,
    )
    const urls = jobs.map((job) => job.url)
    expect(urls.length).toBeGreaterThan(80)
    let compared = 0
    for (const url of urls) {
      const liveAnswer = await live.fetch(new Request(url))
      if (liveAnswer.status !== 200) continue
      // A static client asks for the file's URL without `.json`: the host's one rewrite adds it.
      const path = staticUrl(layout, url)
        .slice(PUBLIC.length)
        .replace(/\.json$/, '')
      const staticAnswer = await fetch(`${host}${path}`)
      expect(staticAnswer.status, url).toBe(200)
      if (url.endsWith('.ics')) {
        // A feed differs only in SOURCE, its own address (test/feeds/static-feeds.test.ts).
        const withoutSource = (text: string) => text.replace(/^SOURCE.*\r\n( .*\r\n)*/m, '')
        expect(withoutSource(await staticAnswer.text()), url).toBe(withoutSource(await liveAnswer.text()))
        compared++
        continue
      }
      expect(await staticAnswer.json(), url).toEqual(toStaticLinks(layout, await liveAnswer.json()))
      compared++
    }
    expect(compared).toBeGreaterThan(80)
  })

  it('points default-query links at files, and leaves a filtered query (no file has it) at its live address', async () => {
    const term = JSON.parse(await readFile(join(out, 'wp-json/calendar/events/v1/categories/2.json'), 'utf8'))
    expect(term._links.collection[0].href).toBe(`${PUBLIC}/wp-json/calendar/events/v1/categories.json`)
    expect(term._links['wp:post_type'][0].href).toBe(`${site.url}/wp-json/calendar/events/v1/events?categories=2`)
    const root = JSON.parse(await readFile(join(out, 'wp-json/calendar/events/v1.json'), 'utf8'))
    expect(root.routes['/calendar/events/v1/venues']._links.self[0].href).toBe(
      `${PUBLIC}/wp-json/calendar/events/v1/venues.json`,
    )
  })

  it('pages through the static lists by their links, as through the live ones', async () => {
    let next: string | undefined = `${PUBLIC}/wp-json/calendar/events/v1/events.json`
    const ids: number[] = []
    while (next) {
      const page = (await (await fetch(`${host}${next.slice(PUBLIC.length)}`)).json()) as {
        events: { id: number }[]
        next_rest_url?: string
      }
      ids.push(...page.events.map((e) => e.id))
      next = page.next_rest_url
    }
    const liveIds = (await call(app, 'events?per_page=50')).body.events.map((e: { id: number }) => e.id)
    expect(ids).toEqual(liveIds)
  })

  it('writes nothing that is not public: no drafts, pending, private or trashed records, no protected fields', async () => {
    const files = await allFiles(out)
    const texts = await Promise.all(files.filter((f) => f.endsWith('.json')).map((f) => readFile(join(out, f), 'utf8')))
    for (const id of [13, 14, 16])
      expect(
        files.some((f) => f.endsWith(`/events/${id}.json`)),
        `event ${id}`,
      ).toBe(false)
    for (const text of texts) {
      expect(text).not.toContain('Hidden details')
      expect(text).not.toContain('Hidden excerpt')
      expect(text).not.toContain('s3cret')
      expect(text).not.toContain('Draft Thing')
      expect(text).not.toContain('Short Lived')
    }
    expect(files).toContain('manifest.json')
    expect(files).toContain('_headers')
    expect(files).toContain('_redirects')
    expect(files).toContain('media/6-poster.png')
  })

  it('keeps a manifest of every file with its hash, and rewrites only what changed', async () => {
    const again = await build()
    expect(again.written).toBe(0)
    await call(app, 'events/8', json('PATCH', { title: 'Meetup, renamed' }, as('admin')))
    const changed = await build()
    expect(changed.written).toBeGreaterThan(0)
    expect(changed.written).toBeLessThan(again.files / 2)
    const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8'))
    const single = await readFile(join(out, 'wp-json/calendar/events/v1/events/8.json'))
    expect(manifest.files['wp-json/calendar/events/v1/events/8.json'].sha256).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.parse(single.toString()).title).toBe('Meetup, renamed')
  })

  it('removes the files of a record that stops being public', async () => {
    await call(app, 'events/9', { method: 'DELETE', headers: as('admin') })
    const result = await build()
    expect(result.removed).toBeGreaterThan(0)
    const files = await allFiles(out)
    expect(files.some((f) => f.endsWith('/events/9.json'))).toBe(false)
  })
})
