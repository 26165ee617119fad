import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { call, fixtureApp } from '../helpers.ts'

type Index = { routes: Record<string, { methods: string[] }> }

// Not REST routes, so not in the index: the site's address and the media files.
const OUTSIDE_THE_API = new Set(['/', '/media/**'])
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const

/** A route key of the index (`/calendar/events/v1/events/(?P<id>\d+)`) as the router's path (`/wp-json/…/events/:id`). */
function routerPath(key: string): string {
  return `/wp-json${key.replace(/\(\?P<(\w+)>[^)]*\)/g, ':$1').replace(/\\\./g, '.')}`.replace(/\/$/, '')
}

/** The route of the index whose regex matches a request path: the whole path, in any case, trailing slashes ignored. */
function matching(index: Index, path: string): { key: string; methods: string[] } | undefined {
  const local = path.replace(/^\/wp-json/i, '').replace(/\/+$/, '') || '/'
  for (const [key, route] of Object.entries(index.routes)) {
    if (new RegExp(`^${key.replace(/\(\?P</g, '(?<')}$`, 'i').test(local)) return { key, methods: route.methods }
  }
  return undefined
}

describe('the API index lists every route the server answers', () => {
  let app: Awaited<ReturnType<typeof fixtureApp>>
  let index: Index
  beforeAll(async () => {
    app = await fixtureApp('reference')
    index = (await call(app, '/wp-json/')).body as Index
  })

  it('has one entry, with the same methods, for every path the router registers', () => {
    const registered = new Map<string, Set<string>>()
    for (const route of app.h3['~routes']) {
      const path = route.route ?? ''
      if (OUTSIDE_THE_API.has(path) || route.method === 'OPTIONS') continue
      registered.set(path, (registered.get(path) ?? new Set<string>()).add(route.method ?? ''))
    }
    const indexed = new Map(
      Object.entries(index.routes).map(([key, route]) => [routerPath(key), new Set(route.methods)]),
    )
    expect([...registered.keys()].sort()).toEqual([...indexed.keys()].sort())
    for (const [path, methods] of registered) expect(methods, path).toEqual(indexed.get(path))
  })

  it('a request is routed exactly when an index route matches its path and lists its method', async () => {
    const segment = fc.constantFrom(
      'events',
      'venues',
      'organizers',
      'categories',
      'tags',
      'doc',
      'diagnostics',
      'by-slug',
      'summer-concert',
      'town-hall',
      '7',
      '4',
      '999999',
      'abc',
      'Events',
      '',
    )
    const start = fc.constantFrom(
      '/wp-json',
      '/wp-json/calendar/events/v1',
      '/wp-json/calendar',
      '/wp-json/calendar/events/v1/events',
    )
    const request = fc.record({
      path: fc.tuple(start, fc.array(segment, { maxLength: 3 })).map(([head, rest]) => [head, ...rest].join('/')),
      method: fc.constantFrom(...METHODS),
    })
    await fc.assert(
      fc.asyncProperty(request, async ({ path, method }) => {
        const response = await call(app, path, { method })
        const routed = response.body?.code !== 'rest_no_route'
        const route = matching(index, path)
        expect(routed, `${method} ${path} → ${response.status} ${response.body?.code}`).toBe(
          route?.methods.includes(method) ?? false,
        )
      }),
      { numRuns: 300, seed: Number(process.env.FC_SEED ?? Date.now() % 2 ** 31) },
    )
  })
})
