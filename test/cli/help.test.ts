import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from './spawn.ts'

const ROOT = resolve(import.meta.dirname, '../..')
const VERSION = (JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { version: string }).version
const ESC = '\u001b'

describe.concurrent('asking the command line for help', () => {
  it.each([
    ['serve', '--help'],
    ['build', '-h'],
    ['preview', '--help'],
    ['check', '-h'],
    ['user', '--help'],
    ['user add', '-h'],
    ['user list', '--help'],
    ['user remove', '-h'],
    ['user reset-password', '--help'],
  ])(
    'prints the usage of almanac %s for %s on stdout, without colour when not on a terminal, exit 0',
    async (command, flag) => {
      const { code, stdout, stderr } = await runCli([...command.split(' '), flag], ROOT)
      expect(code).toBe(0)
      expect(stdout).toContain(`USAGE almanac ${command} `)
      expect(stdout).not.toContain(ESC)
      expect(stderr).toBe('')
    },
  )

  it('lists every command for almanac --help, and the subcommands of user for almanac user --help', async () => {
    const top = await runCli(['--help'], ROOT)
    for (const command of ['serve', 'build', 'preview', 'check', 'user'])
      expect(top.stdout).toMatch(new RegExp(`^ +${command} `, 'm'))
    // The two forms citty's usage does not show, on the top level only.
    expect(top.stdout).toContain("\nAlso: almanac help [command] (a command's help), almanac --version.\n")
    const user = await runCli(['user', '--help'], ROOT)
    expect(user.stdout).not.toContain('almanac --version')
    for (const command of ['add', 'list', 'remove', 'reset-password'])
      expect(user.stdout).toMatch(new RegExp(`^ +${command} `, 'm'))
  })

  it('prints the version for --version and -v', async () => {
    for (const flag of ['--version', '-v']) {
      const { code, stdout } = await runCli([flag], ROOT)
      expect(code).toBe(0)
      expect(stdout.trim()).toBe(`almanac ${VERSION}`)
    }
  })
})

describe.concurrent('mistakes on the command line', () => {
  it.each([
    [['serv'], 'almanac: unknown command "serv" (did you mean serve?)', 'USAGE almanac '],
    [['constructor'], 'almanac: unknown command "constructor"', 'USAGE almanac '],
    [['user', 'delete', 'ana'], 'almanac: unknown command "user delete"', 'USAGE almanac user '],
    [['check', '--fixx'], 'almanac: check: unknown option --fixx (did you mean --fix?)', 'USAGE almanac check '],
    [
      ['serve', '--prot', '3000'],
      'almanac: serve: unknown option --prot (did you mean --port?)',
      'USAGE almanac serve ',
    ],
    [['build', '--fix'], 'almanac: build: unknown option --fix', 'USAGE almanac build '],
    [['user', 'list', '-x'], 'almanac: user list: unknown option -x', 'USAGE almanac user list '],
    [['user', 'add'], 'almanac: user add: LOGIN is missing', 'USAGE almanac user add '],
    [['user', 'remove', 'ana', 'bob'], 'almanac: user remove: unexpected argument "bob"', 'USAGE almanac user remove '],
    [['check', 'content'], 'almanac: check: unexpected argument "content"', 'USAGE almanac check '],
    [['serve', '--port'], 'almanac: serve: --port needs a value', 'USAGE almanac serve '],
  ])('almanac %j: one line naming the mistake, then the usage, on stderr; exit 1', async (args, line, usage) => {
    const { code, stdout, stderr } = await runCli(args, ROOT)
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(stderr.split('\n')[0], `stderr was: ${JSON.stringify(stderr)}`).toBe(line)
    expect(stderr).toContain(usage)
    expect(stderr).not.toMatch(/^\s+at /m)
  })

  it('almanac user alone prints the usage of user with its subcommands on stderr, exit 1', async () => {
    const { code, stdout, stderr } = await runCli(['user'], ROOT)
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(stderr).toContain('USAGE almanac user ')
    for (const command of ['add', 'list', 'remove', 'reset-password'])
      expect(stderr).toMatch(new RegExp(`^ +${command} `, 'm'))
    expect(stderr).not.toContain('LOGIN is needed')
  })
})
