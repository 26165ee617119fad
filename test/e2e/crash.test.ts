import { spawn } from 'node:child_process'
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openUsers } from '../../src/auth/users.ts'
import { createStore, type Problem } from '../../src/content/store.ts'
import { FIXTURES } from '../helpers.ts'

const BIN = resolve(import.meta.dirname, '../../bin/almanac.js')
const CYCLES = 8
const AUTH = {
  Authorization: `Basic ${Buffer.from('admin:crash-test-password').toString('base64')}`,
  'Content-Type': 'application/json',
}

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'almanac-crash-'))
  await cp(join(FIXTURES, 'reference', 'content'), join(dir, 'content'), { recursive: true })
  openUsers(join(dir, 'users.yaml')).add('admin', 'administrator', 'crash-test-password')
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** Starts the real server and resolves with its API root once it listens. */
function startServer() {
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--port', '0', '--host', '127.0.0.1', '--users', join(dir, 'users.yaml')],
    { cwd: dir, stdio: 'pipe' },
  )
  const ready = new Promise<string>((done, fail) => {
    let output = ''
    const timer = setTimeout(() => fail(new Error(`server did not start:\n${output}`)), 15_000)
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk
      const url = /API: (\S+)/.exec(output)?.[1]
      if (url) {
        clearTimeout(timer)
        done(url)
      }
    })
    child.on('exit', () => fail(new Error(`server exited:\n${output}`)))
  })
  return { child, ready }
}

/** Keeps 4 writers busy (updates of one event, and creates) until the server dies under them. */
async function writeUntilKilled(api: string, cycle: number, titles: Set<string>): Promise<void> {
  let n = 0
  const writer = async (lane: number) => {
    for (;;) {
      const title = `cycle ${cycle} lane ${lane} write ${n++}`
      titles.add(title)
      const create = lane % 2 === 0
      const request = create
        ? fetch(`${api}/events`, {
            method: 'POST',
            headers: AUTH,
            body: JSON.stringify({
              title,
              start_date: '2027-01-01 10:00:00',
              end_date: '2027-01-01 11:00:00',
              description: 'x'.repeat(2000),
            }),
          })
        : fetch(`${api}/events/8`, {
            method: 'PATCH',
            headers: AUTH,
            body: JSON.stringify({ title, description: title.repeat(50) }),
          })
      try {
        await (await request).arrayBuffer()
      } catch {
        return // the server is gone
      }
    }
  }
  await Promise.all([0, 1, 2, 3].map(writer))
}

describe('a crash in the middle of writes', () => {
  it(`leaves every file whole, holding an old or a new record (${CYCLES} SIGKILLs)`, async () => {
    const titles = new Set(['Plain Meetup'])
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const server = startServer()
      const api = await server.ready
      const exited = new Promise((done) => server.child.on('exit', done))
      const writing = writeUntilKilled(api, cycle, titles)
      await new Promise((done) => setTimeout(done, 150 + Math.random() * 400))
      server.child.kill('SIGKILL')
      await exited
      await writing

      const problems: Problem[] = []
      const store = await createStore(join(dir, 'content'), {
        defaultLanguage: 'en',
        fallback: true,
        onProblem: (p) => problems.push(p),
      })
      expect(problems, `cycle ${cycle}`).toEqual([])
      for (const event of store.list('events')) {
        const title = String(event.source.data.title)
        expect(titles.has(title) || (event.id !== 8 && !title.startsWith('cycle')), `event ${event.id}: ${title}`).toBe(
          true,
        )
      }
      expect(titles.has(String(store.get('events', 8)?.source.data.title))).toBe(true)
    }
    const leftovers = (await readdir(join(dir, 'content', 'events'))).filter((name) => name.endsWith('.tmp'))
    // A kill can strand a temporary file; it is never read as content (not .md), and is harmless.
    for (const name of leftovers) expect(name.startsWith('.')).toBe(true)
    // The writes really happened between the kills: created events and a renamed event 8 are on disk.
    const store = await createStore(join(dir, 'content'), { defaultLanguage: 'en', fallback: true })
    expect(
      store.list('events').filter((event) => String(event.source.data.title).startsWith('cycle')).length,
    ).toBeGreaterThan(CYCLES)
    expect(String(store.get('events', 8)?.source.data.title)).toMatch(/^cycle/)
  }, 120_000)
})
