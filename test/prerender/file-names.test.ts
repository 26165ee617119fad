import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isLang } from '../../src/languages.ts'
import { decodedPath, fileFor, type Layout } from '../../src/prerender/file-layout.ts'
import { trimEndOf } from '../../src/text.ts'

// FC_SEED=<n> replays a failure (fast-check prints the seed in its message).
const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)

/**
 * `fileFor` as it was written before it stopped making strings to compare and cut with: the model the faster one must
 * agree with, name for name. It decodes a path's segments with the same `decodedPath`, which the change left as it
 * was (test/prerender/hostile-slugs.test.ts holds that to its file names).
 */
function modelFileFor(layout: Layout, url: string): string {
  const local = url.startsWith(`${layout.liveUrl}/`)
    ? url.slice(layout.liveUrl.length)
    : new URL(url).pathname + new URL(url).search
  const mark = local.indexOf('?')
  const query = mark < 0 ? new URLSearchParams() : new URLSearchParams(local.slice(mark + 1))
  let path = decodedPath(mark < 0 ? local : local.slice(0, mark))
  let lang = query.get('ml_language')
  const prefix = /^\/(zh-hans|en|ms|ta)(\/.*)$/.exec(path)
  if (prefix && prefix[2]!.startsWith(`${layout.apiRoot}/`)) {
    lang ??= prefix[1]!
    path = prefix[2]!
  }
  path = trimEndOf(path, '/')
  const segment = lang && isLang(lang) && lang !== layout.defaultLang ? `/${lang}` : ''
  if (path.endsWith('.ics')) return `${segment}${path}`.replace(/^\//, '')
  const tail = path.slice(`${layout.apiRoot}/calendar/events/v1`.length).replace(/^\//, '')
  if (['events', 'venues', 'organizers', 'categories', 'tags'].includes(tail)) {
    const perPage = Number(query.get('per_page') ?? layout.defaultPerPage)
    const page = Number(query.get('page') ?? 1)
    if (perPage !== layout.defaultPerPage) path += `/per_page/${perPage}`
    if (page > 1) path += `/page/${page}`
  }
  return `${segment}${path}.json`.replace(/^\//, '')
}

const LIVE = 'http://127.0.0.1:4000'
const segmentText = fc.constantFrom(
  'en',
  'ms',
  'ta',
  'zh-hans',
  'zh',
  'e',
  'xx',
  'enn',
  'zh-hansx',
  'wp-json',
  '',
  'e%6E',
)
const apiRoots = fc.constantFrom('/wp-json', '/api', '/en', '/ms/wp-json', '/zh-hans', '/a', '/', '/x/y')
const tails = fc.constantFrom(
  '',
  '/',
  '/calendar/events/v1',
  '/calendar/events/v1/',
  '/calendar/events/v1/events',
  '/calendar/events/v1/events/',
  '/calendar/events/v1/events//',
  '/calendar/events/v1/events/123',
  '/calendar/events/v1/venues/7',
  '/calendar/events/v1/tags',
  '/calendar/events/v1/doc',
  '/calendar/events/v1/events.ics',
  '/calendar/events/v1/categories/4/events.ics',
  '/calendar/events/v1events',
  '/calendar/events/v2/events',
  '/calendar/events/v1/events/by-slug/a%2Fb',
  '/calendar/events/v1/events/by-slug/a%0Ab',
  '/calendar/events/v1/events/by-slug/%2E%2E',
  '/calendar/events/v1/events/by-slug/..',
  '/calendar/events/v1/./events',
  '/calendar/events/v1/venues/by-slug/a\\b',
  '/calendar/events/v1/venues/by-slug/%E5%8F%B0',
  '/calendar/events/v1/events/by-slug/bad%',
)
const queries = fc
  .array(
    fc.tuple(
      fc.constantFrom('ml_language', 'page', 'per_page', 'status', 'start_date'),
      fc.constantFrom('en', 'ms', 'ta', 'zh-hans', 'xx', '', '1', '2', '10', '50', 'abc'),
    ),
    { maxLength: 3 },
  )
  .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`))

const urls = fc
  .record({
    base: fc.constantFrom(LIVE, `${LIVE}/`, `${LIVE}/sub`, 'https://elsewhere.example', 'http://127.0.0.1:40000'),
    prefix: fc.option(segmentText, { nil: undefined }),
    apiRoot: apiRoots,
    tail: tails,
    query: queries,
  })
  .map(({ base, prefix, apiRoot, tail, query }) => {
    const path = `${prefix === undefined ? '' : `/${prefix}`}${apiRoot}${tail}`
    return `${base.replace(/\/$/, '')}${path}${query}`
  })

const layouts = fc.record({
  publicUrl: fc.constant('https://cdn.example.org/calendar'),
  liveUrl: fc.constantFrom(LIVE, `${LIVE}/sub`),
  apiRoot: apiRoots,
  defaultLang: fc.constantFrom('en', 'ms', 'ta', 'zh-hans') as fc.Arbitrary<Layout['defaultLang']>,
  defaultPerPage: fc.constantFrom(10, 50),
})

/** A name, or the error it was refused with (a malformed escape is refused by both). */
function outcome(run: () => string): string {
  try {
    return run()
  } catch (error) {
    return `throws ${(error as Error).name}: ${(error as Error).message}`
  }
}

describe('the file a URL is written to', () => {
  it('is the same name the string-cutting version gave, for URLs near and far from the API', () => {
    fc.assert(
      fc.property(layouts, urls, (layout, url) => {
        expect(outcome(() => fileFor(layout, url))).toBe(outcome(() => modelFileFor(layout, url)))
      }),
      { seed, numRuns: 5_000 },
    )
  })

  it.each([
    [
      'http://127.0.0.1:4000/wp-json/calendar/events/v1/events/12?ml_language=ms',
      'ms/wp-json/calendar/events/v1/events/12.json',
    ],
    ['http://127.0.0.1:4000/wp-json/calendar/events/v1/events?page=3', 'wp-json/calendar/events/v1/events/page/3.json'],
    ['http://127.0.0.1:4000/ta/wp-json/calendar/events/v1/events.ics', 'ta/wp-json/calendar/events/v1/events.ics'],
    ['http://127.0.0.1:4000/en/wp-json/', 'wp-json.json'],
  ])('writes %s to %s', (url, file) => {
    const layout: Layout = {
      publicUrl: 'https://cdn',
      liveUrl: LIVE,
      apiRoot: '/wp-json',
      defaultLang: 'en',
      defaultPerPage: 10,
    }
    expect(fileFor(layout, url)).toBe(file)
  })
})
