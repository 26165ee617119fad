import { beforeAll, describe, expect, it } from 'vitest'
import { call, fixtureApp } from './helpers.ts'
import { sample, swapNamespace } from './golden.ts'

type Index = {
  namespace: string
  routes: Record<
    string,
    {
      methods: string[]
      endpoints: { methods: string[]; args: Record<string, Record<string, unknown>> | [] }[]
      _links?: { self: { href: string }[] }
    }
  >
}

// Where Almanac's route index differs on purpose: `force` on deletes (docs/compatibility.md §8); `image` has no declared
// type because it also takes a media id as a number (docs/compatibility.md §15); defaults that depend on the moment;
// `recurrence` on event writes, which makes a series (docs/series-writes.md); an event's status and attendance on
// writes, and the `event_status` list filter (docs/compatibility.md §32).
/** Almanac's feeds (docs/feeds.md), after the reference's routes in both indexes. */
const FEEDS = [
  '/events.ics',
  '/events/{id}.ics',
  '/categories/{id}/events.ics',
  '/tags/{id}/events.ics',
  '/venues/{id}/events.ics',
  '/organizers/{id}/events.ics',
]

const OURS_ONLY = new Set([
  'force',
  'recurrence',
  'event_status',
  'event_status_reason',
  'previous_start_date',
  'attendance_mode',
  'online_url',
])

describe('the namespace index and /doc follow the reference', () => {
  let app: Awaited<ReturnType<typeof fixtureApp>>
  beforeAll(async () => {
    app = await fixtureApp('reference')
  })

  it('lists the same routes, methods and arguments in the same order', async () => {
    const ours = (await call(app, '')).body as Index
    const theirs = sample('root-namespace').body as Index
    expect(Object.keys(ours)).toEqual(['namespace', 'routes', '_links', 'languages'])
    // Almanac adds routes of its own at the end: /diagnostics, for editors, and the feeds (docs/feeds.md).
    expect(Object.keys(ours.routes)).toEqual([
      ...Object.keys(theirs.routes).map((key) => swapNamespace(key)),
      '/calendar/events/v1/diagnostics',
      ...FEEDS.map((path) => `/calendar/events/v1${path.replaceAll('.', '\\.').replace('{id}', '(?P<id>\\d+)')}`),
    ])
    for (const [key, route] of Object.entries(theirs.routes)) {
      const mine = ours.routes[swapNamespace(key) as string]!
      expect(mine.methods, key).toEqual(route.methods)
      // Routes without parameters link to themselves, by the site's address (the fixture's is the reference's).
      expect(
        mine._links?.self.map((link) => link.href),
        key,
      ).toEqual(route._links?.self.map((link) => swapNamespace(link.href)))
      route.endpoints.forEach((endpoint, i) => {
        const args = mine.endpoints[i]!.args
        expect(mine.endpoints[i]!.methods, key).toEqual(endpoint.methods)
        expect(
          Object.keys(args).filter((name) => !OURS_ONLY.has(name)),
          `${key} ${endpoint.methods}`,
        ).toEqual(Object.keys(endpoint.args))
        for (const [name, spec] of Object.entries(endpoint.args)) {
          const keys = Object.keys(spec).filter((k) => !(name === 'image' && k === 'type'))
          expect(Object.keys((args as Record<string, object>)[name]!), `${key} ${name}`).toEqual(keys)
        }
      })
    }
  })

  it('shows per_page’s default as a string and the date window as the reference computes it', async () => {
    const ours = (await call(app, '')).body as Index
    const args = ours.routes['/calendar/events/v1/events']!.endpoints[0]!.args as Record<string, { default?: unknown }>
    expect(args.per_page!.default).toBe('9')
    expect(args.start_date!.default).toBe('2026-11-21 23:59:00')
    expect(args.end_date!.default).toBe('2028-11-22 02:08:30')
  })

  it('serves an OpenAPI 3.0 document with a working server URL and the reference paths (docs/compatibility.md §17)', async () => {
    const ours = (await call(app, 'doc')).body
    const theirs = sample('doc').body as typeof ours
    expect(Object.keys(ours)).toEqual(Object.keys(theirs))
    expect(ours.servers).toEqual([{ url: 'http://127.0.0.1:8089/wp-json/calendar/events/v1/' }])
    expect(Object.keys(ours.paths)).toEqual([...Object.keys(theirs.paths), ...FEEDS])
    expect(Object.keys(ours.paths['/events.ics'].get.responses['200'].content)).toEqual(['text/calendar'])
    expect(Object.keys(ours.components.schemas)).toEqual(Object.keys(theirs.components.schemas))
    expect(Object.keys(ours.components.schemas.CostDetails.properties)).toEqual([
      'currency_symbol',
      'currency_code',
      'currency_position',
      'values',
    ])
    for (const path of Object.keys(theirs.paths))
      expect(Object.keys(ours.paths[path]), path).toEqual(Object.keys(theirs.paths[path]))
    const idParameter = ours.paths['/events/{id}'].get.parameters[1]
    expect(idParameter).toEqual({
      in: 'query',
      schema: { type: 'string' },
      description: 'The event password',
      required: false,
      name: 'password',
    })
  })
})
