import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const run = promisify(execFile)
const BIN = resolve(import.meta.dirname, '../../bin/almanac.js')
const VERSION = (JSON.parse(readFileSync(resolve(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string }).version

describe('asking the command line for help', () => {
  it.each([['serve'], ['build'], ['preview'], ['check'], ['user']])('prints the usage of almanac %s for --help and -h, exit 0', async (command) => {
    for (const flag of ['--help', '-h']) {
      const { stdout, stderr } = await run(process.execPath, [BIN, command, flag], { timeout: 20_000 })
      expect(stdout).toMatch(new RegExp(`^Usage: almanac ${command} `))
      expect(stderr).toBe('')
    }
  })

  it('prints the version for --version', async () => {
    const { stdout } = await run(process.execPath, [BIN, '--version'], { timeout: 20_000 })
    expect(stdout.trim()).toBe(`almanac ${VERSION}`)
  })
})
