import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError } from '../../src/config-file.ts'
import { builtLanguages, loadConfig } from '../../src/config.ts'
import { FIXTURES } from '../helpers.ts'
import { runCli } from './spawn.ts'
import { overHostLimit } from '../../src/cli/build.ts'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'almanac-switches-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('the build switches as settings', () => {
  it('writes no per_page=50 copies and every language unless told otherwise', () => {
    const { config } = loadConfig({}, {}, dir)
    expect(config.wide_pages).toBe(false)
    expect(config.slug_pages).toBe(true)
    expect(builtLanguages(config)).toEqual(['en', 'zh-hans', 'ms', 'ta'])
  })

  it('takes wide_pages and languages from flags, ALMANAC_* variables and the config file (a list or a text)', async () => {
    expect(loadConfig({ wide_pages: true, languages: 'ms, en' }, {}, dir).config).toMatchObject({
      wide_pages: true,
      languages: 'ms,en',
    })
    expect(loadConfig({}, { ALMANAC_WIDE_PAGES: 'yes', ALMANAC_LANGUAGES: 'ta' }, dir).config).toMatchObject({
      wide_pages: true,
      languages: 'ta',
    })
    const file = join(dir, 'list.yaml')
    await writeFile(file, 'wide_pages: true\nlanguages: [ta, en]\n')
    const { config } = loadConfig({ config: file }, {}, dir)
    expect(builtLanguages(config)).toEqual(['en', 'ta'])
  })

  it('refuses an unknown language with a "did you mean", and an empty list', async () => {
    expect(() => loadConfig({ languages: 'en,mss' }, {}, dir)).toThrow(
      new ConfigError('languages: unknown language "mss" (did you mean ms?) (known: en, zh-hans, ms, ta)'),
    )
    const file = join(dir, 'empty.yaml')
    await writeFile(file, 'languages: []\n')
    expect(() => loadConfig({ config: file }, {}, dir)).toThrow(/empty\.yaml:1: languages: expected a list/)
  })
})

describe('almanac build --languages and --wide-pages', () => {
  it('writes no record by slug with --no-slug-pages', async () => {
    const out = join(dir, 'no-slugs')
    const ran = await runCli(
      ['build', '--content', join(FIXTURES, 'reference', 'content'), '--out', out, '--no-slug-pages'],
      dir,
    )
    expect(ran.code, ran.stderr).toBe(0)
    expect(await readdir(join(out, 'wp-json/calendar/events/v1/events'))).not.toContain('by-slug')
    expect(await readdir(join(out, 'wp-json/calendar/events/v1/events'))).toContain('7.json')
  })

  it('writes the languages named and the per_page=50 copies when asked', async () => {
    const out = join(dir, 'dist')
    const ran = await runCli(
      [
        'build',
        '--content',
        join(FIXTURES, 'reference', 'content'),
        '--out',
        out,
        '--languages',
        'en,ms',
        '--wide-pages',
      ],
      dir,
    )
    expect(ran.code, ran.stderr).toBe(0)
    expect((await readdir(out)).sort()).toEqual([
      '_headers',
      '_redirects',
      'manifest.json',
      'media',
      'ms',
      'wp-json',
      'wp-json.json',
    ])
    expect(await readdir(join(out, 'ms/wp-json/calendar/events/v1/events'))).toContain('per_page')
  })

  it('names a misspelt switch or language and writes nothing', async () => {
    const out = join(dir, 'never')
    const misspelt = await runCli(['build', '--out', out, '--wide-page'], dir)
    expect(misspelt.code).toBe(1)
    expect(misspelt.stderr).toContain('unknown option --wide-page (did you mean --wide-pages?)')
    const unknown = await runCli(['build', '--out', out, '--languages', 'en,tamil'], dir)
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('languages: unknown language "tamil"')
    await expect(readdir(out)).rejects.toThrow()
  })
})

describe('a build larger than GitHub Pages and GitLab Pages publish', () => {
  const result = { files: 87_239, written: 87_239, removed: 0, ms: 1 }
  it('is warned about, naming the switches that shrink it', () => {
    expect(overHostLimit({ ...result, bytes: 1_115_365_187 })).toBe(
      'almanac: warning: 1.12 GB is more than GitHub Pages and GitLab Pages publish (1 GB); --no-slug-pages or --languages shrink it',
    )
  })
  it('is not, when it fits', () => {
    expect(overHostLimit({ ...result, bytes: 999_999_999 })).toBeUndefined()
  })
})
