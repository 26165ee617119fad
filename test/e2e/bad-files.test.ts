import { spawn } from 'node:child_process'
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FIXTURES } from '../helpers.ts'

const BIN = resolve(import.meta.dirname, '../../bin/almanac.js')

/** Runs the real CLI to its end (at most 15 s); its exit code and everything it printed. */
function run(args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { ...process.env, ALMANAC_PORT: '' },
      stdio: 'pipe',
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk))
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
    // 'close', not 'exit': the last of the output may still be unread when the exit is told.
    child.on('close', (code) => {
      clearTimeout(timer)
      done({ code, output })
    })
  })
}

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'almanac-bad-files-'))
  await cp(join(FIXTURES, 'reference', 'content'), join(dir, 'content'), { recursive: true })
  await writeFile(join(dir, 'bad-users.yaml'), 'users:\n  - id: 1\n    login: [ada\n')
  await writeFile(join(dir, 'bad-config.yaml'), 'port: 3000\n  host: : x\n')
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('files the CLI cannot use', () => {
  it.each([
    [
      'serve with a malformed users file',
      ['serve', '--port', '0', '--host', '127.0.0.1', '--users', 'bad-users.yaml'],
      'bad-users.yaml:4: not valid YAML: ',
    ],
    [
      'user list with a malformed users file',
      ['user', 'list', '--users', 'bad-users.yaml'],
      'bad-users.yaml:4: not valid YAML: ',
    ],
    [
      'user add with a malformed users file',
      ['user', 'add', 'bob', '--role', 'author', '--users', 'bad-users.yaml'],
      'bad-users.yaml:4: not valid YAML: ',
    ],
    [
      'serve with a malformed config file',
      ['serve', '--port', '0', '--config', 'bad-config.yaml'],
      'bad-config.yaml:1: not valid YAML: ',
    ],
    [
      'check with a malformed config file',
      ['check', '--config', 'bad-config.yaml'],
      'bad-config.yaml:1: not valid YAML: ',
    ],
  ])(
    '%s: one line naming the file, the line and the problem, exit code 1',
    async (_, args, message) => {
      const { code, output } = await run(args, dir)
      expect(code).toBe(1)
      expect(output.trim().split('\n'), output).toHaveLength(1)
      expect(output).toContain(`almanac: ${join(dir, message.split(':')[0]!)}:${message.split(':').slice(1).join(':')}`)
      expect(output).not.toMatch(/^\s+at /m)
    },
    20_000,
  )

  it.each([
    [['serve', '--port', '99999'], {}, 'almanac: port: expected 0–65535, got 99999'],
    [
      ['serve', '--port', '0'],
      { ALMANAC_SITE_URL: 'not a url' },
      'almanac: site_url: expected an http(s) URL, got "not a url"',
    ],
  ])(
    'refuses %j with a setting it cannot use, in one line, exit code 1',
    async (args, env, message) => {
      Object.assign(process.env, env)
      try {
        const { code, output } = await run(args, dir)
        expect(code).toBe(1)
        expect(output.trim()).toBe(message)
      } finally {
        for (const key of Object.keys(env)) delete process.env[key]
      }
    },
    20_000,
  )
})
