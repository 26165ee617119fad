import { readdirSync, readlinkSync } from 'node:fs'
import { connect } from 'node:net'
import { appendFile, mkdtemp, rm, symlink, truncate, writeFile } from 'node:fs/promises'
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

/** Descriptors of this process (the preview's handler runs in it) open on huge.json: Linux's /proc, else none. */
function openedHuge(): number {
  try {
    return readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`).endsWith('huge.json')
      } catch {
        return false
      }
    }).length
  } catch {
    return 0
  }
}

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
      '/%2f_headers',
      '/%2F_redirects',
      '/%2fwp-json/calendar/events/v1/events',
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
    // The file is closed with the connection, not when a collection finds its handle.
    for (let waited = 0; openedHuge() > 0 && waited < 2_000; waited += 20)
      await new Promise((done) => setTimeout(done, 20))
    expect(openedHuge()).toBe(0)
  })

  it('sends the bytes its head counted, though the file grows meanwhile', async () => {
    const path = join(built.out, 'moving.json')
    await writeFile(path, 'a'.repeat(4_000_000))
    // Read once the file has grown: the connection closes after the answer, so every byte sent is counted.
    const { port } = new URL(built.host)
    const socket = connect(Number(port), '127.0.0.1')
    socket.write('GET /moving.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    socket.pause()
    await new Promise((done) => setTimeout(done, 100))
    await appendFile(path, 'b'.repeat(1_000_000))
    const chunks: Buffer[] = []
    socket.on('data', (chunk) => chunks.push(chunk)).resume()
    await new Promise((done) => socket.on('close', done))
    const answer = Buffer.concat(chunks)
    const headEnd = answer.indexOf('\r\n\r\n')
    const body = answer.subarray(headEnd + 4)
    expect(answer.toString('latin1', 0, headEnd)).toMatch(/\r\ncontent-length: 4000000\r\n/i)
    expect(body.byteLength).toBe(4_000_000)
  })
})
