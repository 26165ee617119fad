import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { capture, endToEnd, ReplayBook } from '../../scripts/bench/common/capture.ts'

// The bench's limit is bare node:http replaying what Almanac sent: these check that what it replays is what was
// captured (status, end-to-end headers, body), and that anything else is a 404, not some other answer.

const REPLAY = join(import.meta.dirname, '../../scripts/bench/common/replay.ts')
let origin = ''
let server: Server
let dir = ''

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bench-limit-'))
  server = createServer((req, res) => {
    const body = Buffer.from(JSON.stringify({ url: req.url, pad: 'é'.repeat(3000) }))
    const status = req.url === '/gone' ? 410 : 200
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', etag: `"${req.url}"`, 'x-wp-total': 7 })
    res.end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.close()
  await rm(dir, { recursive: true, force: true })
})

/** Starts the replay of `manifest`, runs `work` on its origin, stops it. */
async function withReplay(manifest: string, work: (replay: string) => Promise<void>): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', REPLAY, manifest], { stdio: ['ignore', 'pipe', 'inherit'] })
  try {
    const port = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        const m = /replay listening on (\d+)/.exec(chunk.toString())
        if (m) resolve(m[1]!)
      })
      child.once('exit', (code) => reject(new Error(`replay exited ${code}`)))
    })
    await work(`http://127.0.0.1:${port}`)
  } finally {
    child.kill('SIGKILL')
  }
}

describe('the bench limit', () => {
  it('replays, for each captured path, the same status, end-to-end headers and body', async () => {
    const book = new ReplayBook(join(dir, 'replay.json'))
    const paths = ['/a?x=1&y=%C3%A9', '/b', '/gone']
    const originals = await Promise.all(paths.map((p) => capture(`${origin}${p}`)))
    for (const [i, path] of paths.entries()) book.add(path, originals[i]!)
    await withReplay(book.close(), async (replay) => {
      for (const [i, path] of paths.entries()) {
        const got = await capture(`${replay}${path}`)
        expect(got.status).toBe(originals[i]!.status)
        expect(got.body.equals(originals[i]!.body)).toBe(true)
        expect(got.body.equals(book.body(i))).toBe(true)
        expect(endToEnd(got.headers, false)).toEqual(endToEnd(originals[i]!.headers, false))
      }
      expect((await capture(`${replay}/never-captured`)).status).toBe(404)
    })
  })
})
