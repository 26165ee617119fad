import { beforeAll, describe, expect, it } from 'vitest'
import { call, fixtureApp } from '../helpers.ts'

describe('HTTP conventions of the WordPress REST server', () => {
  let app: Awaited<ReturnType<typeof fixtureApp>>
  beforeAll(async () => {
    app = await fixtureApp('reference')
  })

  it('matches routes case-insensitively and ignores a trailing slash', async () => {
    expect((await call(app, '/WP-JSON/Calendar/Events/V1/EVENTS/7/')).status).toBe(200)
    expect((await call(app, 'venues/')).status).toBe(200)
  })

  it('answers 404 rest_no_route for unknown paths, methods and non-numeric ids', async () => {
    for (const [path, method] of [
      ['nothing-here', 'GET'],
      ['events/abc', 'GET'],
      ['venues/foo', 'GET'],
      ['events/by-slug/', 'GET'],
      ['events', 'DELETE'],
    ] as const) {
      const response = await call(app, path, { method })
      expect(response.status, `${method} ${path}`).toBe(404)
      expect(response.body.code).toBe('rest_no_route')
    }
  })

  it('answers HEAD like GET, without a body', async () => {
    const get = await call(app, 'events')
    const head = await call(app, 'events', { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.text).toBe('')
    expect(head.headers.get('x-tec-total')).toBe(get.headers.get('x-tec-total'))
    expect(head.headers.get('etag')).toBe(get.headers.get('etag'))
  })

  it('describes a route on OPTIONS, as one entry of the namespace index', async () => {
    const response = await call(app, 'events/7', { method: 'OPTIONS' })
    expect(response.status).toBe(200)
    expect(response.body.namespace).toBe('calendar/events/v1')
    expect(response.body.endpoints[0].args.id).toEqual({
      type: 'integer',
      description: 'the event post ID',
      required: true,
    })
  })

  it('sends a strong ETag and answers 304 to If-None-Match (docs/compatibility.md §13)', async () => {
    const first = await call(app, 'events/7')
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^"[\w-]+"$/)
    expect(first.headers.get('cache-control')).toBe('no-cache')
    const again = await call(app, 'events/7', { headers: { 'If-None-Match': etag } })
    expect(again.status).toBe(304)
    expect(again.text).toBe('')
    expect(again.headers.get('etag')).toBe(etag)
    const changed = await call(app, 'events/7', { headers: { 'If-None-Match': '"other"' } })
    expect(changed.status).toBe(200)
  })

  it('sends no ETag on errors', async () => {
    const response = await call(app, 'events/999999')
    expect(response.headers.get('etag')).toBeNull()
  })

  it('adds the CORS headers for a request with an Origin, exposing the totals and ETag (docs/compatibility.md §12)', async () => {
    const response = await call(app, 'events', { headers: { Origin: 'https://calendar.example' } })
    expect(response.headers.get('access-control-allow-origin')).toBe('https://calendar.example')
    expect(response.headers.get('access-control-allow-credentials')).toBe('true')
    expect(response.headers.get('access-control-expose-headers')).toBe(
      'X-WP-Total, X-WP-TotalPages, Link, X-TEC-Total, X-TEC-TotalPages, ETag',
    )
    expect(response.headers.get('vary')).toBe('Origin')
  })

  it('keeps only the _fields asked for, reaching into objects but not lists', async () => {
    const single = await call(app, 'events/7?_fields=id,title,venue.city')
    expect(single.body).toEqual({ id: 7, title: 'Summer Concert', venue: { city: 'Springfield' } })
    const list = await call(app, 'events?_fields=total,events.id')
    expect(list.body).toEqual({ events: [], total: 6 })
  })

  it('wraps the answer in an envelope with _envelope', async () => {
    const response = await call(app, 'events?_envelope=1&_fields=total')
    expect(response.status).toBe(200)
    expect(response.body.status).toBe(200)
    expect(response.body.body).toEqual({ total: 6 })
    expect(response.body.headers['X-TEC-Total']).toBe(6)
  })

  it('pretty-prints with _pretty', async () => {
    const response = await call(app, 'tags/3?_pretty')
    expect(response.text).toContain('\n    "id": 3')
  })

  it('serves media files from content/media and nothing outside it', async () => {
    const image = await call(app, '/media/6-poster.png')
    expect(image.status).toBe(200)
    expect(image.headers.get('content-type')).toBe('image/png')
    for (const path of [
      '/media/../events/plain-meetup.en.md',
      '/media/%2e%2e/%2e%2e/package.json',
      '/media/nope.png',
    ]) {
      expect((await call(app, path)).status, path).toBe(404)
    }
  })

  it('describes an event image from the file itself (docs/compatibility.md §15)', async () => {
    const { body } = await call(app, 'events/7')
    expect(body.image).toEqual({
      url: 'http://127.0.0.1:8089/media/6-poster.png',
      id: 6,
      extension: 'png',
      width: 320,
      height: 200,
      filesize: 502,
    })
  })

  it('answers a malformed percent-encoding with a clear 400 envelope', async () => {
    const response = await call(app, 'events/by-slug/%E0%A4%A')
    expect(response.status).toBe(400)
    expect(response.body.code).toBe('rest_invalid_url')
  })
})
