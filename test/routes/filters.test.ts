import { beforeAll, describe, expect, it } from 'vitest'
import { call, fixtureApp } from '../helpers.ts'

// test/fixtures/filters on a Singapore site, at 2026-11-22 10:08 local. In list order (UTC start):
// 100 Jazz (12-05), 105 Encore (12-06, child of 100), 101 Symphony (12-10), 102 Street Theatre
// (12-12 → 12-14), 103 Craft Fair (all day 12-20), 107 Countdown (12-31 → 01-01), 104 London (2027-03-28).
// 106 is past, 108 a draft. Categories: 1 Music ⊃ 2 Jazz, 3 Theatre, 4 Dance (empty). Tags 10, 11.
const DEFAULT = [100, 105, 101, 102, 103, 107, 104]

let app: Awaited<ReturnType<typeof fixtureApp>>
beforeAll(async () => {
  app = await fixtureApp('filters', { timezone: 'Asia/Singapore' })
  expect(app.problems).toEqual([])
})

const ids = async (path: string) => {
  const response = await call(app, path)
  expect(response.status, `${path}: ${response.text}`).toBe(200)
  return (
    response.body.events ??
    response.body.venues ??
    response.body.organizers ??
    response.body.categories ??
    response.body.tags
  ).map((record: { id: number }) => record.id)
}

describe('GET /events filters', () => {
  it.each([
    ['', DEFAULT],
    ['categories=1', [100, 105, 101, 104]],
    ['categories=music', [100, 105, 101, 104]],
    ['categories=Music', [100, 105, 101, 104]],
    ['categories=2', [100, 105]],
    ['categories=2,3', [100, 105, 102, 103]],
    ['categories[]=2&categories[]=3', [100, 105, 102, 103]],
    ['tags=10', [100, 102]],
    ['tags=outdoor,free-entry', [100, 101, 102]],
    ['categories=3&tags=10', [102]],
    ['venue=1', [100, 101]],
    ['venue=1,2', [100, 101, 102]],
    ['venue=3', []],
    ['organizer=5', [101, 102]],
    ['organizer[]=4&organizer[]=5', [100, 101, 102]],
    ['venue=1&organizer=4', [100]],
    ['featured=true', [100]],
    ['featured=1', [100]],
    ['featured=false', [105, 101, 102, 103, 107, 104]],
    ['ticketed=true', [100]],
    ['ticketed=0', [105, 101, 102, 103, 107, 104]],
    ['post_parent=100', [105]],
    ['search=jazz', [100]],
    ['search=Brahms', [101]],
    ['search=orchestra%20brahms', [101]],
    ['search=theat', [102]],
    ['search=street%20days', [102]],
    ['search=street%20nothing', []],
    ['search=%E7%88%B5%E5%A3%AB&ml_language=zh-hans', [100]],
    ['include=106,100,108', [106, 100]],
    ['include=106&start_date=2026-12-01', [106]],
    ['start_date=2026-12-10', [101, 102, 103, 107, 104]],
    ['end_date=2026-12-12', [100, 105, 101]],
    ['start_date=2026-12-10&end_date=2026-12-20', [101, 102, 103]],
    ['starts_after=2026-12-10', [102, 103, 107, 104]],
    ['starts_before=2026-12-06', [106, 100, 105]],
    ['ends_after=2026-12-13&starts_before=2026-12-13', [102]],
    ['ends_before=2026-12-20', [106, 100, 105, 101, 102]],
    ['ends_after=2026-12-31', [107, 104]],
    ['strict_dates=1&start_date=2026-12-05%2019:00:01', [105, 101, 102, 103, 107, 104]],
    ['strict_dates=true&start_date=2026-12-05%2019:00:00', DEFAULT],
    ['strict_dates=1&end_date=2027-01-01%2000:30:00', [100, 105, 101, 102, 103, 107]],
    ['strict_dates=1&end_date=2027-01-01%2000:29:59', [100, 105, 101, 102, 103]],
    ['start_date=2026-12-05T11:00:00Z&strict_dates=1', DEFAULT],
    ['start_date=1796468400&strict_dates=1', DEFAULT],
    ['start_date=2027-03-28', [104]],
    ['geoloc=1', [100, 101]],
    ['geoloc=0', [105, 102, 103, 107, 104]],
    ['geoloc_lat=1.29&geoloc_lng=103.85', [100, 101]],
    ['geoloc=1&geoloc_lat=48.86&geoloc_lng=2.35', []],
    ['status=publish', DEFAULT],
    ['categories=1&featured=false&per_page=2', [105, 101]],
  ])('%s → %j', async (query, expected) => {
    expect(await ids(`events?${query}`)).toEqual(expected)
  })

  it.each([
    ['categories=999', 'categories'],
    ['categories=nope', 'categories'],
    ['categories=', 'categories'],
    ['tags=0', 'tags'],
    ['venue=999', 'venue'],
    ['venue=100', 'venue'],
    ['organizer=abc', 'organizer'],
    ['post_parent=1', 'post_parent'],
    ['include=0', 'include'],
    ['include=a,b', 'include'],
    ['start_date=garbage', 'start_date'],
    ['ends_after=2026-02-30', 'ends_after'],
    ['strict_dates=', 'strict_dates'],
    ['search=', 'search'],
    ['geoloc_lat=91&geoloc_lng=0', 'geoloc_lat'],
    ['geoloc_lat=1&geoloc_lng=181', 'geoloc_lng'],
    ['page=abc', 'page'],
    ['per_page=-1', 'per_page'],
    ['status=draft', 'status'],
    ['status=any', 'status'],
  ])('rejects %s naming %s', async (query, param) => {
    const response = await call(app, `events?${query}`)
    expect(response.status).toBe(400)
    expect(response.body.code).toBe('rest_invalid_param')
    expect(Object.keys(response.body.data.params)).toEqual([param])
  })

  it.each([
    ['featured=yes', 'featured', 'featured is not of type boolean.'],
    ['ticketed=maybe', 'ticketed', 'ticketed is not of type boolean.'],
    ['geoloc=2', 'geoloc', 'geoloc is not of type boolean.'],
  ])('rejects %s with a type error', async (query, param, message) => {
    const response = await call(app, `events?${query}`)
    expect(response.status).toBe(400)
    expect(response.body.data.params).toEqual({ [param]: message })
    expect(response.body.data.details[param].code).toBe('rest_invalid_type')
  })

  it('asks for both halves of a point', async () => {
    const response = await call(app, 'events?geoloc_lat=1.29')
    expect(response.body).toEqual({
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): geoloc_lng',
      data: { status: 400, params: ['geoloc_lng'] },
    })
  })

  it('carries the effective query in the links, in the reference key order (docs/compatibility.md §30)', async () => {
    const { body } = await call(
      app,
      'events?per_page=1&search=jazz&venue=1&featured=true&categories=2&starts_after=2026-12-01',
    )
    expect(body.rest_url).toBe(
      'http://127.0.0.1:8089/wp-json/calendar/events/v1/events/?page=1&per_page=1&search=jazz&status=publish&starts_after=2026-12-01+23%3A59%3A59&venue=1&featured=1',
    )
    const list = await call(app, 'events?per_page=2&include=101,100&ticketed=0')
    expect(list.body.rest_url).toBe(
      'http://127.0.0.1:8089/wp-json/calendar/events/v1/events/?page=1&per_page=2&status=publish&include=101,100&ticketed=0',
    )
  })

  it('drops a category filter from next_rest_url, as the reference does', async () => {
    const { body } = await call(app, 'events?categories=1&per_page=2')
    expect(body.next_rest_url).toBe(
      'http://127.0.0.1:8089/wp-json/calendar/events/v1/events/?per_page=2&start_date=2026-11-22+00%3A00%3A00&end_date=2028-11-22+23%3A59%3A59&status=publish&page=2',
    )
  })
})

describe('GET /venues and /organizers filters', () => {
  it.each([
    ['venues', [2, 1]],
    ['venues?search=temple%20avenue', [2]],
    ['venues?search=esplanade%20hall', [1]],
    ['venues?search=concert%20drive', []],
    ['venues?search=038981', [1]],
    ['venues?event=102', [2]],
    ['venues?event=103', []],
    ['venues?has_events=1', [2, 1]],
    ['venues?has_events=no', []],
    ['venues?only_with_upcoming=yes', [2, 1]],
    ['organizers', [5, 4]],
    ['organizers?search=team@river', [4]],
    ['organizers?search=6332', [5]],
    ['organizers?event=102', [5, 4]],
    ['venues?per_page=1&page=2', [1]],
  ])('%s → %j', async (path, expected) => {
    expect(await ids(path)).toEqual(expected)
  })

  it('carries search, event and has_events in the links', async () => {
    const { body } = await call(app, 'venues?search=hall&has_events=1&per_page=1')
    expect(body.rest_url).toBe(
      'http://127.0.0.1:8089/wp-json/calendar/events/v1/venues/?page=1&per_page=1&status=publish&search=hall&has_events=1',
    )
    expect(body.next_rest_url).toBe(
      'http://127.0.0.1:8089/wp-json/calendar/events/v1/venues/?per_page=1&status=publish&search=hall&has_events=1&page=2',
    )
  })

  it('answers a page past the end with 404', async () => {
    const response = await call(app, 'venues?page=3')
    expect(response.status).toBe(404)
    expect(response.body.code).toBe('venue-archive-page-not-found')
  })

  it('rejects an event that is not an event', async () => {
    expect((await call(app, 'venues?event=1')).status).toBe(400)
  })
})

describe('GET /categories and /tags filters', () => {
  it.each([
    ['categories', [2, 1, 3]],
    ['categories?hide_empty=0', [4, 2, 1, 3]],
    ['categories?order=desc', [3, 1, 2]],
    ['categories?orderby=id', [1, 2, 3]],
    ['categories?orderby=id&order=desc', [3, 2, 1]],
    ['categories?orderby=slug', [2, 1, 3]],
    ['categories?orderby=include&include=3,1', [3, 1]],
    ['categories?parent=1', [2]],
    ['categories?post=102', [3]],
    ['categories?event=100&post=102', [2]],
    ['categories?include=1,3', [1, 3]],
    ['categories?include=music', []],
    ['categories?exclude=1', [2, 3]],
    ['categories?search=us', [1]],
    ['categories?slug=jazz', [2]],
    ['categories?slug=muzik&ml_language=ms', [1]],
    ['tags', [11, 10]],
    ['tags?orderby=count&order=desc', [10, 11]],
    ['tags?post=100', [10]],
  ])('%s → %j', async (path, expected) => {
    expect(await ids(path)).toEqual(expected)
  })

  it('takes parent as an integer only: a slug passes the term check, then fails the type, as in the reference', async () => {
    const response = await call(app, 'categories?parent=music')
    expect(response.status).toBe(400)
    expect(response.body.data.params).toEqual({ parent: 'parent is not of type integer.' })
  })

  it('counts published events in each term', async () => {
    const { body } = await call(app, 'categories?hide_empty=false&orderby=id')
    expect(body.categories.map((c: { count: number }) => c.count)).toEqual([2, 2, 2, 0])
  })

  it.each([
    ['categories?parent=0', 'parent'],
    ['categories?include=99', 'include'],
    ['tags?exclude=nope', 'exclude'],
    ['tags?post=1', 'post'],
  ])('rejects %s', async (path, param) => {
    const response = await call(app, path)
    expect(response.status).toBe(400)
    expect(Object.keys(response.body.data.params)).toEqual([param])
  })

  it('never 404s past the end, and its links drop per_page and filters (docs/compatibility.md §30)', async () => {
    const { status, body } = await call(app, 'categories?per_page=1&page=5&search=a')
    expect(status).toBe(200)
    expect(body.categories).toEqual([])
    expect(body.rest_url).toBe('http://127.0.0.1:8089/wp-json/calendar/events/v1/categories/')
    expect(body.previous_rest_url).toBe('http://127.0.0.1:8089/wp-json/calendar/events/v1/categories/?page=4')
    expect(body.next_rest_url).toBeUndefined()
    const first = await call(app, 'categories?per_page=1')
    expect(first.body.next_rest_url).toBe('http://127.0.0.1:8089/wp-json/calendar/events/v1/categories/?page=2')
  })
})
