import { cp, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError } from '../../src/config-file.ts'
import { builtLanguages, loadConfig } from '../../src/config.ts'
import { FIXTURES } from '../helpers.ts'
import { runCli, startCli } from './spawn.ts'
import { overHostLimit, slugPagesLeftOut, switchOptions } from '../../src/cli/build-switches.ts'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'almanac-switches-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('the build switches as settings', () => {
  it('writes no per_page=50 copies, every language, and by-slug files while they fit, unless told otherwise', () => {
    const { config } = loadConfig({}, {}, dir)
    expect(config.wide_pages).toBe(false)
    expect(config.slug_pages).toBe('auto')
    expect(switchOptions(config)).toEqual({ widePages: false, languages: ['en', 'zh-hans', 'ms', 'ta'] })
    expect(builtLanguages(config)).toEqual(['en', 'zh-hans', 'ms', 'ta'])
  })

  it('takes slug_pages as auto, true or false, and refuses anything else', async () => {
    expect(switchOptions(loadConfig({ slug_pages: false }, {}, dir).config).slugPages).toBe(false)
    expect(switchOptions(loadConfig({}, { ALMANAC_SLUG_PAGES: 'yes' }, dir).config).slugPages).toBe(true)
    const file = join(dir, 'slugs.yaml')
    await writeFile(file, 'slug_pages: auto\n')
    expect(switchOptions(loadConfig({ config: file }, {}, dir).config)).not.toHaveProperty('slugPages')
    await writeFile(file, 'slug_pages: sometimes\n')
    expect(() => loadConfig({ config: file }, {}, dir)).toThrow(
      /slugs\.yaml:1: slug_pages: expected true, false or auto, got "sometimes"/,
    )
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

  it('writes no feed with --no-feeds, and takes feeds as auto, true or false in the file', async () => {
    const out = join(dir, 'no-feeds')
    const ran = await runCli(
      ['build', '--content', join(FIXTURES, 'reference', 'content'), '--out', out, '--no-feeds'],
      dir,
    )
    expect(ran.code, ran.stderr).toBe(0)
    expect(await readdir(join(out, 'wp-json/calendar/events/v1'))).not.toContain('events.ics')
    expect(switchOptions(loadConfig({ feeds: true }, {}, dir).config).feeds).toBe(true)
    expect(switchOptions(loadConfig({}, {}, dir).config).feeds).toBeUndefined()
    const file = join(dir, 'feeds.yaml')
    await writeFile(file, 'feeds: sometimes\n')
    expect(() => loadConfig({ config: file }, {}, dir)).toThrow(/feeds\.yaml:1: feeds: expected true, false or auto/)
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
      'slugs.json',
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

describe('a default build whose by-slug files would take it past 1 GB', () => {
  const result = { files: 46_010, written: 46_010, removed: 0, ms: 1, bytes: 692_000_000 }
  it('says which files it left out, why, and what stands in for them', () => {
    const slugPages = { files: 41_228, bytes: 422_574_479, written: false }
    expect(slugPagesLeftOut({ ...result, slugPages }, undefined)).toBe(
      'almanac: note: left out 41228 by-slug files (423 MB): with them the site would be 1.11 GB, more than ' +
        'GitHub Pages and GitLab Pages publish (1 GB). slugs.json maps each slug to its id; --slug-pages writes them anyway',
    )
  })
  it('says nothing when they were written, or left out because --no-slug-pages said so', () => {
    expect(
      slugPagesLeftOut({ ...result, slugPages: { files: 3, bytes: 30, written: true } }, undefined),
    ).toBeUndefined()
    expect(slugPagesLeftOut({ ...result, slugPages: { files: 3, bytes: 30, written: false } }, false)).toBeUndefined()
  })
})

describe('almanac serve with a build switch and no --build', () => {
  it('refuses it, naming the switch as given: without --build it would do nothing', async () => {
    const content = join(FIXTURES, 'reference', 'content')
    for (const [flag, said] of [
      [['--wide-pages'], '--wide-pages'],
      [['--no-feeds'], '--no-feeds'],
      [['--languages', 'en'], '--languages'],
      [['--out', join(dir, 'never')], '--out'],
    ] as const) {
      const ran = await runCli(['serve', '--content', content, '--port', '0', ...flag], dir)
      expect(ran.code, said).toBe(1)
      expect(ran.stderr).toContain(`serve: ${said} is for serve --build (without it nothing is written)`)
    }
  })
})

describe('almanac serve --build with the build switches', () => {
  it('writes what --languages, --wide-pages and --no-slug-pages ask, as almanac build does', async () => {
    const content = join(dir, 'serve-content')
    await cp(join(FIXTURES, 'reference', 'content'), content, { recursive: true })
    const out = join(dir, 'serve-dist')
    const server = startCli(
      ['serve', '--quiet', '--port', '0', '--content', content, '--build', '--out', out].concat([
        '--languages',
        'en,ta',
        '--wide-pages',
        '--no-slug-pages',
      ]),
      dir,
    )
    try {
      await server.waitFor(/ready in/, 60_000)
      expect((await readdir(out)).sort()).toEqual(
        ['_headers', '_redirects', 'manifest.json', 'media', 'slugs.json', 'ta', 'wp-json', 'wp-json.json'].sort(),
      )
      const events = await readdir(join(out, 'ta/wp-json/calendar/events/v1/events'))
      expect(events).toContain('per_page')
      expect(events).not.toContain('by-slug')
    } finally {
      await server.stop()
    }
  }, 70_000)
})
