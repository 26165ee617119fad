import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FIXTURES } from '../helpers.ts'
import { runCli, startCli } from './spawn.ts'

let dir: string
let blocker: Server
let busyPort: number
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'almanac-first-run-'))
  await cp(join(FIXTURES, 'reference', 'content'), join(dir, 'project', 'content'), { recursive: true })
  await mkdir(join(dir, 'empty', 'content', 'events'), { recursive: true })
  blocker = createServer()
  await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', done))
  busyPort = (blocker.address() as { port: number }).port
  await writeFile(
    join(dir, 'project', 'almanac.config.yaml'),
    `host: 127.0.0.1\nport: ${busyPort}\ncurrency_symbol: S$\ncurrancy: SGD\n`,
  )
})
afterAll(async () => {
  blocker.close()
  await rm(dir, { recursive: true, force: true })
})

describe('almanac serve, started from a folder inside a project', () => {
  it("reads the project's config, says so, warns about its unknown key, says in its own words that the port moved, and logs each request in one line without secrets", async () => {
    const config = join(dir, 'project', 'almanac.config.yaml')
    const server = startCli(['serve'], join(dir, 'project', 'content', 'events'))
    try {
      const [, url] = await server.waitFor(/API: (http:\/\/\S+)/)
      // stdout and stderr are two pipes: a line written before the address may still be on its way.
      await server.waitFor(literally(`Config: ${config}`))
      await server.waitFor(
        literally(`almanac: warning: ${config}:4: unknown setting "currancy" (did you mean currency?); it is ignored`),
      )
      await server.waitFor(new RegExp(`^almanac: port ${busyPort} is busy; serving on \\d+$`, 'm'))
      expect(server.stdout() + server.stderr()).not.toContain('[get-port]')
      const event = (await (
        await fetch(`${url}/events/7?password=hunter2-secret&lang=en`, { signal: AbortSignal.timeout(5_000) })
      ).json()) as { cost?: string }
      expect(event.cost).toBe('S$15')
      await fetch(`${url}/events/99999%0A200%20GET%20/forged`, { signal: AbortSignal.timeout(5_000) })
      const [line] = await server.waitFor(/^GET \S*events\/99999\S* 404 \d+ ms$/m)
      expect(line).toBe(line.trim())
      expect(server.stdout()).toMatch(
        /^GET \/wp-json\/calendar\/events\/v1\/events\/7\?password=\*\*\*&lang=en 200 \d+ ms$/m,
      )
      expect(server.stdout()).not.toContain('hunter2')
      expect(server.stdout()).not.toMatch(/^200 GET \/forged/m)
    } finally {
      expect(await server.stop()).toBe(0)
    }
  }, 40_000)

  it('logs nothing per request with --quiet', async () => {
    const server = startCli(['serve', '--quiet', '--port', '0'], join(dir, 'project'))
    try {
      const [, url] = await server.waitFor(/API: (http:\/\/\S+)/)
      expect((await fetch(`${url}/events`, { signal: AbortSignal.timeout(5_000) })).status).toBe(200)
      await new Promise((done) => setTimeout(done, 300))
      expect(server.stdout()).not.toMatch(/^GET /m)
    } finally {
      await server.stop()
    }
  }, 40_000)
})

describe('folders that hold nothing', () => {
  it.each([['check'], ['build']])(
    'almanac %s warns about a content folder without records, and says it read no config',
    async (command) => {
      const { code, stderr } = await runCli(
        command === 'build' ? ['build', '--out', join(dir, 'empty', 'dist')] : ['check'],
        join(dir, 'empty'),
      )
      expect(code).toBe(0)
      expect(stderr).toContain(`almanac: warning: ${join(dir, 'empty', 'content')} holds no records`)
      expect(stderr).toContain('Config: none')
    },
  )

  it('almanac serve warns about a content folder without records, and almanac preview about an empty dist, and both still start', async () => {
    await mkdir(join(dir, 'empty', 'blank-dist'), { recursive: true })
    const serve = startCli(['serve', '--port', '0', '--host', '127.0.0.1'], join(dir, 'empty'))
    const preview = startCli(
      ['preview', '--port', '0', '--host', '127.0.0.1', '--out', 'blank-dist'],
      join(dir, 'empty'),
    )
    try {
      await Promise.all([serve.waitFor(/API: http/), preview.waitFor(/Previewing /)])
      await serve.waitFor(literally(`almanac: warning: ${join(dir, 'empty', 'content')} holds no records`))
      await preview.waitFor(
        literally(`almanac: warning: ${join(dir, 'empty', 'blank-dist')} is empty; run almanac build first`),
      )
    } finally {
      await Promise.all([serve.stop(), preview.stop()])
    }
  }, 40_000)

  it('almanac preview refuses a dist folder that is not there, in one line, exit 1', async () => {
    const { code, stderr } = await runCli(['preview', '--port', '0', '--out', join(dir, 'nothing')], dir)
    expect(code).toBe(1)
    expect(stderr.trim()).toBe(`almanac: ${join(dir, 'nothing')}: no such folder; run almanac build first`)
  })
})

describe('almanac preview', () => {
  it('says where it serves from and which config it read, and logs each request in one line', async () => {
    const out = join(dir, 'preview-dist')
    expect((await runCli(['build', '--out', out], join(dir, 'empty'))).code).toBe(0)
    const preview = startCli(['preview', '--port', '0', '--host', '127.0.0.1', '--out', out], join(dir, 'empty'))
    try {
      const [, url] = await preview.waitFor(/Previewing \S+ at (http:\/\/\S+)/)
      await preview.waitFor(/Config: none/) // the line after the address: it may come in a later chunk
      expect(
        (await fetch(`${url}/wp-json/calendar/events/v1/events?page=1`, { signal: AbortSignal.timeout(5_000) })).status,
      ).toBe(200)
      await preview.waitFor(/^GET \/wp-json\/calendar\/events\/v1\/events\?page=1 200 \d+ ms$/m)
    } finally {
      await preview.stop()
    }
  }, 40_000)
})

/** A pattern that matches `text` as it is. */
function literally(text: string): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
}
