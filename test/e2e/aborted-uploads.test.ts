import { spawn } from 'node:child_process'
import { cp, mkdtemp, rm } from 'node:fs/promises'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openUsers } from '../../src/auth/users.ts'
import { FIXTURES } from '../helpers.ts'

const BIN = resolve(import.meta.dirname, '../../bin/almanac.js')
const AUTH = `Basic ${Buffer.from('admin:upload-test-password').toString('base64')}`
const BIG = Buffer.alloc(3 * 1024 * 1024, 'a')

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'almanac-uploads-'))
  await cp(join(FIXTURES, 'reference', 'content'), join(dir, 'content'), { recursive: true })
  openUsers(join(dir, 'users.yaml')).add('admin', 'administrator', 'upload-test-password')
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** The real server on a loopback port; resolves with its API root once it listens. */
function startServer() {
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--port', '0', '--host', '127.0.0.1', '--users', join(dir, 'users.yaml')],
    { cwd: dir, stdio: 'pipe' },
  )
  let output = ''
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)))
  const ready = new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`server did not start:\n${output}`)), 15_000)
    const read = (chunk: Buffer) => {
      output += chunk
      const url = /API: (\S+)/.exec(output)?.[1]
      if (url) {
        clearTimeout(timer)
        done(url)
      }
    }
    child.stdout.on('data', read)
    child.stderr.on('data', read)
    void exited.then(() => {
      clearTimeout(timer)
      fail(new Error(`server exited:\n${output}`))
    })
  })
  return { child, ready, exited, output: () => output }
}

/** A POST of a body over the limit (declared or chunked), cut off by the client after `afterMs`. */
function abortedUpload(port: number, chunked: boolean, afterMs: number): Promise<void> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1')
    socket.on('error', () => done())
    socket.on('close', () => done())
    socket.on('connect', () => {
      const length = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${BIG.length}`
      socket.write(
        `POST /wp-json/calendar/events/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH}\r\nContent-Type: application/json\r\n${length}\r\n\r\n`,
      )
      socket.write(
        chunked
          ? Buffer.concat([Buffer.from(`${BIG.length.toString(16)}\r\n`), BIG, Buffer.from('\r\n0\r\n\r\n')])
          : BIG,
      )
      setTimeout(() => socket.destroy(), afterMs)
    })
  })
}

describe('large rejected uploads from clients that hang up', () => {
  it('leave the server running and answering', async () => {
    const server = startServer()
    try {
      const api = await server.ready
      const port = Number(new URL(api).port)
      for (let round = 0; round < 4; round++) {
        await Promise.all(Array.from({ length: 24 }, (_, i) => abortedUpload(port, i % 2 === 1, 10 + (i % 6) * 15)))
      }
      const answer = await fetch(`${api}/events/7`, { signal: AbortSignal.timeout(5_000) })
      expect(answer.status, server.output()).toBe(200)
      const rejected = await fetch(`${api}/events`, {
        method: 'POST',
        headers: { Authorization: AUTH, 'Content-Type': 'application/json' },
        body: BIG,
        signal: AbortSignal.timeout(5_000),
      })
      expect(rejected.status).toBe(413)
      expect(server.output()).not.toMatch(/TypeError|uncaught|unexpected error/i)
    } finally {
      server.child.kill('SIGTERM')
    }
    expect(await server.exited).toBe(0)
  }, 60_000)
})
