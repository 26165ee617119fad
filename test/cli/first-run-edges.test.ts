import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listenHttp } from '../../src/cli/listen.ts'
import { BIN, runCli, startCli } from './spawn.ts'

const ROOT = resolve(import.meta.dirname, '../..')
let dir: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'almanac-edges-'))
  await mkdir(join(dir, 'empty', 'content'), { recursive: true })
  await mkdir(join(dir, 'dist'))
  await writeFile(join(dir, 'dist', 'index.json'), '{}')
  await writeFile(join(dir, 'afile'), 'not a folder')
})
afterAll(() => rm(dir, { recursive: true, force: true }))

/** Holds a port on `host` (the given one, or any free one) until closed; a port already held elsewhere is busy all the same. */
async function hold(host: string, port = 0): Promise<{ port: number; close: () => Promise<void> }> {
  const blocker: Server = createServer()
  const held = await new Promise<boolean>((done) => {
    blocker.once('error', () => done(false))
    blocker.listen(port, host, () => done(true))
  })
  const taken = held ? (blocker.address() as { port: number }).port : port
  return {
    port: taken,
    close: () => (held ? new Promise<void>((done) => blocker.close(() => done())) : Promise.resolve()),
  }
}

describe('a busy port', () => {
  it("that was only a default moves to the next free port after it, said in Almanac's words", async () => {
    const busy = await hold('127.0.0.1')
    const warnings: string[] = []
    const listener = await listenHttp((_req, res) => res.end(), {
      port: busy.port,
      host: '127.0.0.1',
      exact: false,
      warn: (line) => warnings.push(line),
    })
    try {
      expect(listener.port).toBeGreaterThan(busy.port)
      expect(listener.port).toBeLessThanOrEqual(busy.port + 100)
      expect(warnings).toEqual([`almanac: port ${busy.port} is busy; serving on ${listener.port}`])
    } finally {
      await listener.close()
      await busy.close()
    }
  })

  it("almanac preview with 4173 busy serves on 4174 or the next free port after it, not on serve's 3000", async () => {
    const busy = await hold('127.0.0.1', 4173)
    const preview = startCli(['preview', '--host', '127.0.0.1', '--out', join(dir, 'dist')], dir)
    try {
      const [, port] = await preview.waitFor(/^almanac: port 4173 is busy; serving on (\d+)$/m)
      expect(Number(port)).toBeGreaterThan(4173)
      expect(Number(port)).toBeLessThanOrEqual(4273)
    } finally {
      await preview.stop()
      await busy.close()
    }
  })

  it.each([
    [['--port'], {}, '--port'],
    [[], { ALMANAC_PORT: 'PORT' }, 'ALMANAC_PORT'],
  ])(
    "that the user named (%j %j) stops almanac serve with one line in Almanac's words, exit 1",
    async (flag, env, source) => {
      const busy = await hold('127.0.0.1')
      try {
        const envWithPort = Object.fromEntries(Object.entries(env).map(([key]) => [key, String(busy.port)]))
        const args = [
          'serve',
          '--host',
          '127.0.0.1',
          '--content',
          join(dir, 'empty', 'content'),
          ...flag.flatMap((f) => [f, String(busy.port)]),
        ]
        const { code, stderr } = await runCli(args, dir, envWithPort)
        expect(code).toBe(1)
        expect(stderr.trim().split('\n').at(-1)).toBe(
          `almanac: port ${busy.port} is in use (given with ${source}); choose another or stop what holds it`,
        )
        expect(stderr).not.toMatch(/Unable to find|get-port|^\s+at /m)
      } finally {
        await busy.close()
      }
    },
  )
})

describe('almanac user with a login typed in another case', () => {
  it('names the user as stored when it resets a password and when it removes', async () => {
    const file = join(dir, 'cased.yaml')
    const run = (...args: string[]) => runCli(['user', ...args, '--users', file], dir)
    expect((await run('add', 'Ada', '--role', 'editor', '--password', 'ada-password-0001')).code).toBe(0)
    const reset = await run('reset-password', 'ADA', '--password', 'ada-password-0002')
    expect([reset.code, reset.stdout.trim()]).toEqual([0, 'Password of Ada replaced'])
    const fresh = await run('reset-password', 'aDa')
    expect(fresh.stdout).toMatch(/^New application password for Ada \(shown once\): (\w{4} ){5}\w{4}\n$/)
    const removed = await run('remove', 'ada')
    expect([removed.code, removed.stdout.trim()]).toEqual([0, 'Removed Ada'])
  })
})

describe('almanac user with a users file that is not there', () => {
  it.each([[['list']], [['remove', 'ana']], [['reset-password', 'ana']]])(
    'almanac user %j says there is no users file yet, exit 1, and creates nothing',
    async (action) => {
      const file = join(dir, 'nowhere', 'u.yaml')
      const { code, stdout, stderr } = await runCli(['user', ...action, '--users', file], dir)
      expect(code).toBe(1)
      expect(stdout).toBe('')
      expect(stderr.trim()).toBe(`almanac: ${file}: no users file yet; add one with almanac user add LOGIN --role ROLE`)
      expect(existsSync(join(dir, 'nowhere'))).toBe(false)
    },
  )

  it('almanac user add names a missing --role as missing, with the roles to choose from', async () => {
    const { code, stderr } = await runCli(['user', 'add', 'bob', '--users', join(dir, 'roles.yaml')], dir)
    expect(code).toBe(1)
    expect(stderr.split('\n')[0]).toBe(
      'almanac: user add: --role is missing; use administrator, editor, author, contributor or subscriber',
    )
  })
})

describe('help that reads well', () => {
  it('almanac user alone names what is missing before the usage', async () => {
    const { code, stderr } = await runCli(['user'], ROOT)
    expect(code).toBe(1)
    expect(stderr.split('\n')[0]).toBe('almanac: user: a subcommand is needed (add, list, remove or reset-password)')
    expect(stderr).toContain('USAGE almanac user ')
  })

  it.each([[['--help', 'serve']], [['-h', 'user', 'add']], [['user', '--help', 'list']]])(
    "almanac %j shows the same help as the command's own --help",
    async (args) => {
      const named = args.filter((arg) => !arg.startsWith('-'))
      const asked = await runCli(args, ROOT)
      const own = await runCli([...named, '--help'], ROOT)
      expect(asked.code).toBe(0)
      expect(asked.stdout).toContain(`USAGE almanac ${named.join(' ')} `)
      expect(asked.stdout).toBe(own.stdout)
    },
  )

  it('the help of preview and check reads as a sentence and tells what --fix writes', async () => {
    const preview = await runCli(['preview', '--help'], ROOT)
    expect(preview.stdout.split('\n')[0]).not.toMatch(/\) \(/)
    const check = await runCli(['check', '--help'], ROOT)
    expect(check.stdout).toContain(
      'make mechanical repairs (missing ids, publication dates, key order) and say what changed',
    )
  })
})

describe('almanac check', () => {
  it('counts in its summary the warnings it printed: an empty folder and an unknown config key', async () => {
    await writeFile(join(dir, 'empty', 'almanac.config.yaml'), 'currancy: SGD\n')
    try {
      const { code, stderr } = await runCli(['check'], join(dir, 'empty'))
      expect(code).toBe(0)
      expect(stderr).toMatch(/^almanac: warning: .*currancy/m)
      expect(stderr).toContain('holds no records')
      expect(stderr).toMatch(/^0 errors, 2 warnings$/m)
    } finally {
      await rm(join(dir, 'empty', 'almanac.config.yaml'))
    }
  })

  it.each([['stdout'], ['stderr']] as const)(
    'keeps its exit code and prints no stack trace when its %s is closed early (| head)',
    async (closed) => {
      const child = spawn(process.execPath, [BIN, 'check'], { cwd: ROOT, stdio: 'pipe' })
      child[closed].destroy()
      const open = closed === 'stdout' ? child.stderr : child.stdout
      let said = ''
      open.on('data', (chunk: Buffer) => (said += chunk))
      const code = await new Promise<number | null>((done) => child.on('close', done))
      expect(code).toBe(0)
      expect(said).not.toMatch(/EPIPE|^\s+at /m)
      expect(said).toMatch(closed === 'stdout' ? /^0 errors, \d+ warnings?$/m : /warning/)
    },
  )

  it('says a --content that is a file is a file, not a folder', async () => {
    const { code, stderr } = await runCli(['check', '--content', 'afile'], dir)
    expect(code).toBe(1)
    expect(stderr.trim()).toBe(`almanac: ${join(dir, 'afile')} is a file, not a folder`)
  })
})
