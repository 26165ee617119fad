import { beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../src/app.ts'
import { call, fixtureApp, SAMPLE_NOW, testSite } from '../helpers.ts'

type Route = {
  namespace: string
  methods: string[]
  endpoints: { methods: string[]; args: unknown }[]
  _links?: { self: { href: string }[] }
}
type Index = { namespaces: string[]; routes: Record<string, Route>; _links: Record<string, { href: string }[]> }

const SITE = 'http://127.0.0.1:8089'

describe('the WordPress REST index at the API root', () => {
  let app: Awaited<ReturnType<typeof fixtureApp>>
  beforeAll(async () => {
    app = await fixtureApp('reference')
  })

  it('answers /wp-json/ and /wp-json with the site and its routes, in the order WordPress gives them', async () => {
    for (const path of ['/wp-json/', '/wp-json', '/WP-JSON/']) {
      const response = await call(app, path)
      expect(response.status, path).toBe(200)
      expect(Object.keys(response.body), path).toEqual([
        'name',
        'description',
        'url',
        'home',
        'gmt_offset',
        'timezone_string',
        'namespaces',
        'authentication',
        'routes',
        '_links',
      ])
    }
    const index = (await call(app, '/wp-json/')).body
    expect(index).toMatchObject({
      name: 'Almanac',
      description: '',
      url: SITE,
      home: SITE,
      gmt_offset: 0,
      timezone_string: 'UTC',
      namespaces: ['calendar/events/v1'],
      authentication: [],
    })
    expect(index._links).toEqual({ help: [{ href: 'https://developer.wordpress.org/rest-api/' }] })
  })

  it('describes itself as the route "/" with its context argument, then every route of the namespace index', async () => {
    const index = (await call(app, '/wp-json/')).body as Index
    const namespace = (await call(app, '')).body as Index
    expect(index.routes['/']).toEqual({
      namespace: '',
      methods: ['GET'],
      endpoints: [{ methods: ['GET'], args: { context: { default: 'view', required: false } } }],
      _links: { self: [{ href: `${SITE}/wp-json/` }] },
    })
    expect(Object.keys(index.routes)).toEqual(['/', ...Object.keys(namespace.routes)])
    for (const [key, route] of Object.entries(namespace.routes)) expect(index.routes[key], key).toEqual(route)
    expect(index.routes['/calendar/events/v1']!._links!.self[0]!.href).toBe(`${SITE}/wp-json/calendar/events/v1`)
  })

  it('is where the Link header of every answer points, and the namespace index leads up to it', async () => {
    for (const path of ['events', 'events/999999', 'nothing-here', '/', '/wp-json/']) {
      const link = (await call(app, path)).headers.get('link')
      expect(link, path).toBe(`<${SITE}/wp-json/>; rel="https://api.w.org/"`)
      const target = await call(app, /^<([^>]+)>/.exec(link!)![1]!.slice(SITE.length))
      expect(target.status).toBe(200)
      expect(target.body.namespaces).toEqual(['calendar/events/v1'])
    }
    expect((await call(app, '')).body._links.up).toEqual([{ href: `${SITE}/wp-json/` }])
  })

  it('answers HEAD without a body and OPTIONS with its own route description', async () => {
    const head = await call(app, '/wp-json/', { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.text).toBe('')
    const options = await call(app, '/wp-json/', { method: 'OPTIONS' })
    expect(options.body).toEqual((await call(app, '/wp-json/')).body.routes['/'])
  })

  it('keeps a language prefix in its links, as every other answer does', async () => {
    const index = (await call(app, '/ms/wp-json/')).body as Index
    expect(index.routes['/']!._links!.self[0]!.href).toBe(`${SITE}/ms/wp-json/`)
    expect(index.routes['/calendar/events/v1/events']!._links!.self[0]!.href).toBe(
      `${SITE}/ms/wp-json/calendar/events/v1/events`,
    )
    expect((await call(app, '/wp-json/?ml_language=xx')).status).toBe(400)
  })

  it('answers the site address / with 200, the Link header and a pointer to the index', async () => {
    const home = await call(app, '/')
    expect(home.status).toBe(200)
    expect(home.headers.get('link')).toBe(`<${SITE}/wp-json/>; rel="https://api.w.org/"`)
    expect(home.body._links['https://api.w.org/']).toEqual([{ href: `${SITE}/wp-json/` }])
    expect((await call(app, '/', { method: 'HEAD' })).status).toBe(200)
  })
})

describe('the index tells the site it describes', () => {
  const appIn = async (timezone: string, now: number) => {
    const base = await fixtureApp('reference')
    const site = { ...testSite(), timezone, name: 'Kampong Events', description: 'What is on, and where' }
    return createApp({
      store: base.store,
      site,
      perPage: 9,
      maxPerPage: 50,
      fallback: true,
      now: () => now,
      log: () => {},
    })
  }

  it('gives the configured name and tagline', async () => {
    const index = (await call(await appIn('UTC', SAMPLE_NOW), '/wp-json/')).body
    expect([index.name, index.description]).toEqual(['Kampong Events', 'What is on, and where'])
    expect((await call(await appIn('UTC', SAMPLE_NOW), '/')).body.name).toBe('Kampong Events')
  })

  it('gives the zone by name and its offset in hours at the moment of the request', async () => {
    const winter = (await call(await appIn('America/New_York', SAMPLE_NOW), '/wp-json/')).body
    expect([winter.gmt_offset, winter.timezone_string]).toEqual([-5, 'America/New_York'])
    const summer = (await call(await appIn('America/New_York', Date.parse('2026-07-01T12:00:00Z')), '/wp-json/')).body
    expect(summer.gmt_offset).toBe(-4)
    const singapore = (await call(await appIn('Asia/Singapore', SAMPLE_NOW), '/wp-json/')).body
    expect([singapore.gmt_offset, singapore.timezone_string]).toEqual([8, 'Asia/Singapore'])
  })

  it('gives a fixed offset only as the offset, as WordPress stores a manual one', async () => {
    const index = (await call(await appIn('UTC+5:30', SAMPLE_NOW), '/wp-json/')).body
    expect([index.gmt_offset, index.timezone_string]).toEqual([5.5, ''])
  })
})
