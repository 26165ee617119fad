import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../src/build/build.ts'
import { answer } from '../../src/cli/preview.ts'
import { readHostRules } from '../../src/cli/static-host.ts'
import { fixtureApp, SAMPLE_NOW, testSite } from '../helpers.ts'

const PUBLIC = 'https://cdn.example.org'
let out: string
let outside: string
let server: Server
let host: string

beforeAll(async () => {
  const app = await fixtureApp('reference')
  out = await mkdtemp(join(tmpdir(), 'almanac-preview-'))
  outside = await mkdtemp(join(tmpdir(), 'almanac-outside-'))
  await buildSite({
    store: app.store,
    site: testSite(),
    out,
    publicUrl: PUBLIC,
    perPage: 9,
    maxPerPage: 50,
    now: () => SAMPLE_NOW,
    workers: 0,
  })
  await writeFile(join(outside, 'secret.json'), '{"secret":true}')
  await symlink(join(outside, 'secret.json'), join(out, 'leak.json'))
  const rules = await readHostRules(out)
  server = createServer((req, res) => void answer(out, req, res, rules))
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  host = `http://127.0.0.1:${(server.address() as { port: number }).port}`
})
afterAll(async () => {
  await new Promise((done) => server.close(done))
  await rm(out, { recursive: true, force: true })
  await rm(outside, { recursive: true, force: true })
})

describe('almanac preview, like the static hosts that read _headers and _redirects', () => {
  it('sends the headers _headers gives a path: the Link to the index, caching, nosniff, exposed headers', async () => {
    for (const path of ['/wp-json/', '/wp-json/calendar/events/v1/events', '/ms/wp-json/calendar/events/v1/venues']) {
      const response = await fetch(`${host}${path}`)
      expect(response.status, path).toBe(200)
      expect(response.headers.get('link'), path).toBe(`<${PUBLIC}/wp-json/>; rel="https://api.w.org/"`)
      expect(response.headers.get('cache-control'), path).toBe('public, max-age=300, must-revalidate')
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff')
      expect(response.headers.get('access-control-expose-headers'), path).toBe('ETag, Link')
    }
  })

  it('follows the rewrites of _redirects', async () => {
    const response = await fetch(`${host}/wp-json/calendar/events/v1/events`)
    expect((await response.json()).events.length).toBeGreaterThan(0)
  })

  it('never serves a file through a link that leads out of the folder', async () => {
    expect((await fetch(`${host}/leak.json`)).status).toBe(404)
    expect((await fetch(`${host}/leak`)).status).toBe(404)
  })
})
