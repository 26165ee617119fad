import { mkdtemp, rm, symlink, truncate, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { headersFor, parseHeaders } from '../../src/cli/static-host.ts'
import { PUBLIC, usePreviewedBuild } from '../prerender/previewed.ts'

let outside: string
const built = usePreviewedBuild(async (out) => {
  outside = await mkdtemp(join(tmpdir(), 'almanac-outside-'))
  await writeFile(join(outside, 'secret.json'), '{"secret":true}')
  await symlink(join(outside, 'secret.json'), join(out, 'leak.json'))
  // Sparse: 3 GB of nothing, more than a single read may take.
  await writeFile(join(out, 'huge.json'), '')
  await truncate(join(out, 'huge.json'), 3 * 1024 ** 3)
})
afterAll(async () => {
  await rm(outside, { recursive: true, force: true })
})

describe('almanac preview, like the static hosts that read _headers and _redirects', () => {
  it('sends the headers _headers gives a path: the Link to the index, caching, nosniff, exposed headers', async () => {
    for (const path of ['/wp-json/', '/wp-json/calendar/events/v1/events', '/ms/wp-json/calendar/events/v1/venues']) {
      const response = await fetch(`${built.host}${path}`)
      expect(response.status, path).toBe(200)
      expect(response.headers.get('link'), path).toBe(`<${PUBLIC}/wp-json/>; rel="https://api.w.org/"`)
      expect(response.headers.get('cache-control'), path).toBe('public, max-age=300, must-revalidate')
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff')
      expect(response.headers.get('access-control-expose-headers'), path).toBe('ETag, Link')
    }
  })

  it('follows the rewrites of _redirects', async () => {
    const response = await fetch(`${built.host}/wp-json/calendar/events/v1/events`)
    expect((await response.json()).events.length).toBeGreaterThan(0)
  })

  it("serves a feed as text/calendar, as _headers asks, and neither of the host's own files", async () => {
    const feed = await fetch(`${built.host}/wp-json/calendar/events/v1/events.ics`)
    expect(feed.status).toBe(200)
    expect(feed.headers.get('content-type')).toBe('text/calendar; charset=utf-8')
    for (const path of ['/_headers', '/_redirects'])
      expect((await fetch(`${built.host}${path}`)).status, path).toBe(404)
  })

  it('reads a placeholder of _headers as one path segment', () => {
    const [rule] = parseHeaders('/api/:kind/:id/events.ics\n  Content-Type: text/calendar\n')
    expect(headersFor([rule!], '/api/venues/5/events.ics')).toEqual({ 'Content-Type': 'text/calendar' })
    expect(headersFor([rule!], '/api/venues/5/x/events.ics')).toEqual({})
    expect(headersFor([rule!], '/api/:kind/:id/events.ics')).toEqual({ 'Content-Type': 'text/calendar' })
  })

  it('never serves a file through a link that leads out of the folder', async () => {
    expect((await fetch(`${built.host}/leak.json`)).status).toBe(404)
    expect((await fetch(`${built.host}/leak`)).status).toBe(404)
  })

  it('takes no path through an encoded dot segment: the host files and the rules of _headers hold', async () => {
    for (const path of [
      '/a/..%2f_headers',
      '/a/..%2F_redirects',
      '/x/..%2fwp-json/calendar/events/v1/events',
      '/x%5c..%5c_headers',
    ])
      expect((await fetch(`${built.host}${path}`)).status, path).toBe(404)
  })

  it('answers a method other than GET and HEAD 405, in the envelope', async () => {
    const response = await fetch(`${built.host}/wp-json/calendar/events/v1/events`, { method: 'POST' })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET, HEAD')
    expect((await response.json()).code).toBe('rest_no_route')
  })

  it('streams a file of gigabytes, and serves on', async () => {
    const head = await fetch(`${built.host}/huge.json`, { method: 'HEAD' })
    expect(head.headers.get('content-length')).toBe(String(3 * 1024 ** 3))
    const controller = new AbortController()
    const response = await fetch(`${built.host}/huge.json`, { signal: controller.signal })
    expect(response.status).toBe(200)
    const reader = response.body!.getReader()
    expect((await reader.read()).value!.byteLength).toBeGreaterThan(0)
    controller.abort()
    await reader.closed.catch(() => {})
    expect((await fetch(`${built.host}/wp-json/`)).status).toBe(200)
  })
})
