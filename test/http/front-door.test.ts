import { rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { type AddressInfo, connect } from 'node:net'
import { toNodeHandler } from 'h3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAnswerCache } from '../../src/http/answer-cache.ts'
import { HOT_MS, HOT_SERVES, keptAnswer } from '../../src/http/answer-reuse.ts'
import { frontDoor } from '../../src/http/front-door.ts'
import { as, call, json, writableApp } from '../helpers.ts'

// The front door (src/http/front-door.ts): a request written the same way as one answered from a kept answer is
// answered from that answer's bytes before h3 sees it. What goes on the wire must be what h3 would have sent:
// the same status line, headers in the same order and body, byte for byte (the Date aside). `viaH3` is the same
// app (the same kept answers) served by h3 alone.

let app: Awaited<ReturnType<typeof writableApp>>
const servers: Server[] = []
let port: number
let h3Port: number
beforeAll(async () => {
  app = await writableApp('reference', { now: Date.parse('2026-12-10T10:30:00Z') })
  port = await listen(app.node)
  h3Port = await listen(toNodeHandler(app.h3))
})
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections()
    await new Promise((done) => server.close(done))
  }
  await rm(app.dir, { recursive: true, force: true })
})

async function listen(handler: Parameters<typeof createServer>[1]): Promise<number> {
  const server = createServer(handler)
  servers.push(server)
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  return (server.address() as AddressInfo).port
}

const viaH3 = (method: string, target: string, headers: Record<string, string> = {}) =>
  exchange(method, target, headers, h3Port)

/** Writes one HTTP/1.1 request on a fresh socket and returns every byte of the answer, its Date line blanked. */
function exchange(method: string, target: string, headers: Record<string, string> = {}, at = port): Promise<string> {
  const lines = [`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close']
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`)
  return new Promise((resolve, reject) => {
    const socket = connect(at, '127.0.0.1', () => socket.write(`${lines.join('\r\n')}\r\n\r\n`))
    const chunks: Buffer[] = []
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no answer to ${method} ${target}`)))
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () =>
      resolve(
        Buffer.concat(chunks)
          .toString('latin1')
          .replace(/\r\nDate: [^\r]*/i, ''),
      ),
    )
  })
}

const EVENTS = '/wp-json/calendar/events/v1/events'

/** A front door of its own, on a socket, over one kept answer of `parts` that `GET /list` finds. */
async function keptBehindDoor(parts: Buffer[], now: () => number) {
  const answers = createAnswerCache()
  const out = { status: 200, headers: { 'Content-Type': 'application/json' }, etag: '"e"', body: parts }
  const kept = keptAnswer(out, { from: 0, until: Number.POSITIVE_INFINITY })
  answers.keep('key', 0, kept)
  answers.alias('/list ', 'key', 0)
  const door = await listen(frontDoor({ answers, store: { version: 0 }, now } as never, () => {}))
  return { kept, door }
}

describe('the front door', () => {
  it.each([
    ['the event list', 'GET', EVENTS, {}],
    [
      'a list asked with odd case, a trailing slash and a language segment',
      'GET',
      '/ms/WP-JSON/Calendar/Events/V1/Events/?per_page=2',
      {},
    ],
    ['a list asked from another origin', 'GET', `${EVENTS}?per_page=1`, { Origin: 'https://a.example' }],
    ['the venues', 'GET', '/wp-json/calendar/events/v1/venues', {}],
  ])('answers %s again with the bytes h3 answered it with', async (_, method, target, headers) => {
    const first = await exchange(method, target, headers)
    const hits = app.answers!.hits
    const again = await exchange(method, target, headers)
    expect(first).toMatch(/^HTTP\/1\.1 200 /)
    expect(again).toBe(first)
    expect(again).toBe(await viaH3(method, target, headers))
    expect(app.answers!.hits).toBe(hits + 2)
    // HOT_SERVES more (the app's clock stands still): a list is hot on the way (the next test holds that it is then
    // joined), and its bytes are the same.
    for (let i = 0; i < HOT_SERVES; i++) expect(await exchange(method, target, headers)).toBe(first)
  })

  it('writes what a kept answer gives for the serve: its parts, then, once hot, them joined', async () => {
    let now = 0
    const parts = [Buffer.from('{"events":['), Buffer.from('{"id":1}'), Buffer.from(',{"id":2}'), Buffer.from(']}')]
    const { kept, door } = await keptBehindDoor(parts, () => now)
    const served = new Set<string>()
    // One serve short of hot, then a serve in the next window (still parts), then enough in that one (joined).
    const times = [...Array(HOT_SERVES - 1).fill(0), ...Array(HOT_SERVES).fill(HOT_MS)]
    for (const [i, at] of times.entries()) {
      now = at
      served.add((await exchange('GET', '/list', {}, door)).split('\r\n\r\n')[1]!)
      expect(kept.body instanceof Uint8Array, `serve ${i}`).toBe(i === times.length - 1)
    }
    expect([...served]).toEqual(['{"events":[{"id":1},{"id":2}]}'])
  })

  it('does not count a 304 towards an answer being hot', async () => {
    const { kept, door } = await keptBehindDoor([Buffer.from('['), Buffer.from('1'), Buffer.from(']')], () => 0)
    const held = kept.body
    for (let i = 0; i < HOT_SERVES; i++)
      expect(await exchange('GET', '/list', { 'If-None-Match': '"e"' }, door)).toMatch(/^HTTP\/1\.1 304 /)
    expect(kept.body).toBe(held)
    // The first 200 it serves: one serve, still parts.
    await exchange('GET', '/list', {}, door)
    expect(kept.body).toBe(held)
    expect(Array.isArray(held)).toBe(true)
  })

  it('answers 304 to a request naming the kept ETag, as h3 does', async () => {
    const first = await exchange('GET', `${EVENTS}?per_page=4`)
    const etag = /\r\nETag: ([^\r]*)/i.exec(first)![1]!
    for (const asked of [etag, `W/${etag}, "other"`, '*']) {
      const notModified = await exchange('GET', `${EVENTS}?per_page=4`, { 'If-None-Match': asked })
      expect(notModified).toMatch(/^HTTP\/1\.1 304 /)
      expect(notModified).toBe(await viaH3('GET', `${EVENTS}?per_page=4`, { 'If-None-Match': asked }))
    }
    const changed = await exchange('GET', `${EVENTS}?per_page=4`, { 'If-None-Match': '"other"' })
    expect(changed).toBe(first)
  })

  it('never answers a request with Authorization from what it keeps', async () => {
    await exchange('GET', EVENTS)
    const wrong = await exchange('GET', EVENTS, {
      Authorization: `Basic ${Buffer.from('editor:nope').toString('base64')}`,
    })
    expect(wrong).toMatch(/^HTTP\/1\.1 401 /)
    const editor = await exchange('GET', EVENTS, as('editor'))
    expect(editor).toMatch(/no-store, private/)
  })

  it('never keeps an answer a password opened', async () => {
    const target = `${EVENTS}?password=secret`
    await exchange('GET', target)
    const hits = app.answers!.hits
    await exchange('GET', target)
    expect(app.answers!.hits).toBe(hits)
  })

  it('serves a change at once: a write empties what it kept', async () => {
    const target = '/wp-json/calendar/events/v1/events/10'
    await exchange('GET', target)
    expect(await exchange('GET', target)).not.toContain('Front door renamed')
    const write = await call(app, 'events/10', json('POST', { title: 'Front door renamed' }, as('admin')))
    expect(write.status).toBe(200)
    expect(await exchange('GET', target)).toContain('Front door renamed')
  })
})
