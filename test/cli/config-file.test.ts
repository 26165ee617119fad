import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ConfigError } from '../../src/config-file.ts'
import { loadConfig } from '../../src/config.ts'

let top: string
let deep: string
beforeEach(async () => {
  top = await mkdtemp(join(tmpdir(), 'almanac-config-'))
  deep = join(top, 'content', 'events')
  await mkdir(deep, { recursive: true })
})
afterEach(async () => {
  await rm(top, { recursive: true, force: true })
})
const configAt = (dir: string, text: string) => writeFile(join(dir, 'almanac.config.yaml'), text)

describe('finding almanac.config.yaml', () => {
  it('reads the first one from the working folder upward, and resolves its paths and the default paths against its folder', async () => {
    await configAt(top, 'currency_symbol: S$\nout: site/dist\n')
    const { config, file } = loadConfig({}, {}, deep)
    expect(file).toBe(join(top, 'almanac.config.yaml'))
    expect(config.currency_symbol).toBe('S$')
    expect(config.out).toBe(join(top, 'site/dist'))
    expect(config.content).toBe(join(top, 'content'))
    expect(config.users).toBe(join(top, '.almanac/users.yaml'))
  })

  it('resolves paths given by flags and ALMANAC_* variables against the working folder', async () => {
    await configAt(top, 'content: site/content\n')
    const { config } = loadConfig({ content: 'here' }, { ALMANAC_OUT: 'built' }, deep)
    expect(config.content).toBe(join(deep, 'here'))
    expect(config.out).toBe(join(deep, 'built'))
  })

  it('takes the nearest file when there are several', async () => {
    await configAt(top, 'currency: EUR\n')
    await configAt(join(top, 'content'), 'currency: GBP\n')
    expect(loadConfig({}, {}, deep).config.currency).toBe('GBP')
  })

  it('reads an explicit --config or ALMANAC_CONFIG instead, and refuses one that is not there', async () => {
    await configAt(top, 'currency: EUR\n')
    await writeFile(join(deep, 'other.yaml'), 'currency: JPY\n')
    expect(loadConfig({ config: 'other.yaml' }, {}, deep).config.currency).toBe('JPY')
    expect(loadConfig({}, { ALMANAC_CONFIG: 'other.yaml' }, deep).config.currency).toBe('JPY')
    expect(() => loadConfig({ config: 'missing.yaml' }, {}, deep)).toThrow(
      `${join(deep, 'missing.yaml')}: config file not found`,
    )
  })

  it('reads none when there is none, with the paths relative to the working folder', () => {
    const { config, file } = loadConfig({}, {}, deep)
    expect(file).toBeNull()
    expect(config.content).toBe(join(deep, 'content'))
  })
})

describe('what is wrong in a config file', () => {
  it('warns about unknown keys, naming the file and line, with a "did you mean" when a known key is close', async () => {
    await configAt(top, 'timezone: UTC\ncurrancy: EUR\ncolour: red\n')
    const { warnings, config } = loadConfig({}, {}, top)
    const file = join(top, 'almanac.config.yaml')
    expect(warnings).toEqual([
      `${file}:2: unknown setting "currancy" (did you mean currency?); it is ignored`,
      `${file}:3: unknown setting "colour"; it is ignored`,
    ])
    expect(config.currency).toBe('USD')
  })

  it.each([
    ['malformed YAML', 'timezone: UTC\ncurrency: "EUR\n', /:3: not valid YAML: Missing closing "quote$/],
    ['a key twice', 'currency: EUR\ncurrency: GBP\n', /:2: not valid YAML: Map keys must be unique$/],
    ['a list', '- port: 3000\n', /:1: expected a mapping of settings/],
    ['a value it cannot use', 'timezone: UTC\n\nport: 99999\n', /:3: port: expected 0–65535, got 99999$/],
    ['a time zone that is not one', 'timezone: Mars/Base\n', /:1: timezone: "Mars\/Base" is not an IANA time zone$/],
  ])('refuses %s in one line naming the file and the line', async (_, text, problem) => {
    await configAt(top, text)
    let error: unknown
    try {
      loadConfig({}, {}, top)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message.startsWith(`${join(top, 'almanac.config.yaml')}:`)).toBe(true)
    expect((error as Error).message).toMatch(problem)
    expect((error as Error).message).not.toContain('\n')
  })
})
