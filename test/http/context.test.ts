import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../src/app.ts'
import { createStore } from '../../src/content/store.ts'
import { eventListIds } from '../../src/prerender/affected-pages.ts'
import { call, FIXTURES, fixtureApp, SAMPLE_NOW, testSite } from '../helpers.ts'

describe('the request context', () => {
  it('carries the limits the app was configured with, to a request and to the static export alike', async () => {
    const store = await createStore(resolve(FIXTURES, 'filters', 'content'), { defaultLanguage: 'en', fallback: true })
    const app = createApp({
      store,
      site: testSite(),
      perPage: 3,
      maxPerPage: 7,
      geolocDistance: 40,
      fallback: true,
      now: () => SAMPLE_NOW,
    })
    const ctx = app.context({ lang: 'ms' })
    expect({ ...ctx, userExists: undefined }).toMatchObject({
      caller: null,
      reader: 'none',
      lang: 'ms',
      prefix: null,
      langNamed: false,
      now: SAMPLE_NOW,
      perPage: 3,
      maxPerPage: 7,
      geolocDistance: 40,
      store,
      indexes: app.indexes,
    })
    expect(ctx.userExists(1)).toBe(false)
    // `per_page` is capped at the app's maximum, not at a number written elsewhere.
    const capped = await call(app, 'events?per_page=50&start_date=2000-01-01')
    expect(capped.body.events.length).toBe(7)
  })

  it('gives the static export the events GET /events pages through, at the app own page size', async () => {
    const app = await fixtureApp('filters', { perPage: 2 })
    const paged: number[] = []
    for (let page = 1; ; page++) {
      const answer = await call(app, `events?page=${page}`)
      if (answer.status !== 200) break
      paged.push(...answer.body.events.map((event: { id: number }) => event.id))
    }
    expect(paged.length).toBeGreaterThan(2)
    expect(eventListIds(app, 'en', SAMPLE_NOW)).toEqual(paged)
  })
})
