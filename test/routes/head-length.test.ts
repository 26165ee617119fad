import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixtureApp } from '../helpers.ts'

// A HEAD answered without Content-Length left a client no way to size an answer without fetching it (RFC 9110,
// section 9.3.2, lets a server send the length a GET would). On the wire, as Node writes it.

let server: Server
let port = 0
beforeAll(async () => {
  const app = await fixtureApp('reference')
  server = createServer(app.node)
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  port = (server.address() as AddressInfo).port
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((done) => server.close(done))
})

function ask(method: string, path: string) {
  return new Promise<{ status: number; length: string | undefined; bytes: number }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, timeout: 5_000 }, (res) => {
      let bytes = 0
      res.on('data', (chunk: Buffer) => (bytes += chunk.length))
      res.on('end', () => resolve({ status: res.statusCode!, length: res.headers['content-length'], bytes }))
    })
    req.on('error', reject).on('timeout', () => req.destroy(new Error('timed out')))
    req.end()
  })
}

describe('a HEAD', () => {
  const paths = [
    'events',
    'events?per_page=2&page=2',
    'events/7',
    'events/by-slug/summer-concert',
    'venues',
    'organizers',
    'categories',
    'tags',
    'events.ics',
    'nothing-here',
    'events?per_page=abc',
    'events/99999',
  ]
  it('tells the length a GET sends, and sends no body', async () => {
    for (const path of paths) {
      const url = `/wp-json/calendar/events/v1/${path}`
      const get = await ask('GET', url)
      const head = await ask('HEAD', url)
      expect(head.status, path).toBe(get.status)
      expect(head.bytes, path).toBe(0)
      expect(head.length, path).toBe(String(get.bytes))
    }
  })
})
