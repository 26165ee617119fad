import { spawn, type ChildProcess } from 'node:child_process'
import { cp, mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FIXTURES } from '../helpers.ts'

const BIN = resolve(import.meta.dirname, '../../bin/almanac.js')

/** Starts the real CLI; resolves with the API URL it prints, or rejects with what it said. */
function start(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): { child: ChildProcess; ready: Promise<string>; exit: Promise<number | null>; output: () => string } {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: { ...process.env, ALMANAC_PORT: '', ...env },
    stdio: 'pipe',
  })
  let output = ''
  const exit = new Promise<number | null>((done) => child.on('exit', (code) => done(code)))
  const ready = new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`no URL within 15 s:\n${output}`)), 15_000)
    const read = (chunk: Buffer) => {
      output += chunk.toString()
      // The API's address; with a public https one, where it listens.
      const url = /(?:API|Listening): (http:\/\/\S+)/.exec(output)?.[1]
      if (url) {
        clearTimeout(timer)
        done(url)
      }
    }
    child.stdout!.on('data', read)
    child.stderr!.on('data', read)
    void exit.then(() => {
      clearTimeout(timer)
      fail(new Error(`exited before listening:\n${output}`))
    })
  })
  return { child, ready, exit, output: () => output }
}

describe('almanac serve, end to end', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'almanac-e2e-'))
    await cp(join(FIXTURES, 'reference', 'content'), join(dir, 'content'), { recursive: true })
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('serves the content tree over HTTP and stops cleanly on SIGTERM', async () => {
    const server = start(['serve', '--port', '0', '--host', '127.0.0.1'], dir)
    try {
      const api = await server.ready
      const response = await fetch(`${api}/events/7`, { signal: AbortSignal.timeout(5_000) })
      expect(response.status).toBe(200)
      const event = (await response.json()) as { title: string; rest_url: string }
      expect(event.title).toBe('Summer Concert')
      expect(event.rest_url).toBe(`${api}/events/7`)
      expect(server.output()).toMatch(/Almanac is serving .* ready in \d+ ms/)
    } finally {
      server.child.kill('SIGTERM')
    }
    expect(await server.exit).toBe(0)
  })

  it('says where it listens when its public address is another', async () => {
    const server = start(['serve', '--port', '0', '--host', '127.0.0.1'], dir, {
      ALMANAC_SITE_URL: 'https://cal.example.org',
    })
    try {
      const listening = await server.ready
      expect(listening).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(server.output()).toContain('➜ API: https://cal.example.org/wp-json/calendar/events/v1\n')
      const response = await fetch(`${listening}/wp-json/calendar/events/v1/events/7`, {
        signal: AbortSignal.timeout(5_000),
      })
      expect(((await response.json()) as { rest_url: string }).rest_url).toBe(
        'https://cal.example.org/wp-json/calendar/events/v1/events/7',
      )
    } finally {
      server.child.kill('SIGTERM')
    }
    expect(await server.exit).toBe(0)
  })

  it('refuses a port that is asked for and taken, with exit code 1', async () => {
    const blocker = createServer()
    await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', done))
    const port = (blocker.address() as { port: number }).port
    try {
      const server = start(['serve', '--port', String(port), '--host', '127.0.0.1'], dir)
      server.ready.catch(() => {})
      expect(await server.exit).toBe(1)
      expect(server.output()).toContain(
        `almanac: port ${port} is in use (given with --port); choose another or stop what holds it`,
      )
    } finally {
      blocker.close()
    }
  })

  it('rejects an unknown flag with exit code 1', async () => {
    const server = start(['serve', '--prot', '3000'], dir)
    server.ready.catch(() => {})
    expect(await server.exit).toBe(1)
    expect(server.output()).toContain('almanac: serve: unknown option --prot (did you mean --port?)')
  })
})
