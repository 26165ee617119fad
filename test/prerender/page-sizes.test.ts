import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../src/prerender/site-builder.ts'
import { buildOptions, call, fixtureApp } from '../helpers.ts'

// The static export writes every event list twice: at the site's page size and on wide pages. A wide
// page can hold no more events than the app serves on one page (`max_per_page`), so with small sizes
// the wide pages must be cut at that size too, or the events past it are in no wide file at all.
const API = 'wp-json/calendar/events/v1'
let out: string
let app: Awaited<ReturnType<typeof fixtureApp>>

beforeAll(async () => {
  app = await fixtureApp('reference', { perPage: 2, maxPerPage: 3 })
  out = await mkdtemp(join(tmpdir(), 'almanac-page-sizes-'))
  await buildSite(buildOptions(app.store, out, { perPage: 2, maxPerPage: 3, widePages: true }))
})
afterAll(() => rm(out, { recursive: true, force: true }))

const read = async (path: string) => JSON.parse(await readFile(join(out, path), 'utf8'))
const ids = (page: { events: { id: number }[] }) => page.events.map((event) => event.id)

describe('a build with pages smaller than 50', () => {
  it('writes every page of the default size, each with the events the live server lists', async () => {
    const live = (await call(app, 'events')).body
    expect(live.total).toBeGreaterThan(3)
    for (let page = 1; page <= live.total_pages; page++) {
      const file = page === 1 ? `${API}/events.json` : `${API}/events/page/${page}.json`
      expect(ids(await read(file))).toEqual(ids((await call(app, `events?page=${page}`)).body))
    }
  })

  it('cuts the wide pages at max_per_page and writes all of them, so every event is in one', async () => {
    const live = (await call(app, 'events')).body
    const wide: number[] = []
    const pages = Math.ceil(live.total / 3)
    for (let page = 1; page <= pages; page++) {
      const file = page === 1 ? `${API}/events/per_page/3.json` : `${API}/events/per_page/3/page/${page}.json`
      const body = await read(file)
      expect(body.total_pages).toBe(pages)
      wide.push(...ids(body))
    }
    const all: number[] = []
    for (let page = 1; page <= live.total_pages; page++) all.push(...ids((await call(app, `events?page=${page}`)).body))
    expect(wide).toEqual(all)
  })
})
