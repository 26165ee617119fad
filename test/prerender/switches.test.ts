import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../src/prerender/site-builder.ts'
import { buildOptions, FIXTURES, filesUnder, testApp, testSite } from '../helpers.ts'
import { createStore, type Store } from '../../src/content/store.ts'
import type { BuildOptions } from '../../src/prerender/site-builder.ts'

// The build's switches: what each writes and leaves out, and that the manifest says exactly what is there.

let store: Store
const dirs: string[] = []

beforeAll(async () => {
  store = await createStore(join(FIXTURES, 'reference', 'content'), { defaultLanguage: 'en', fallback: true })
})
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })))
})

const files = filesUnder

async function manifestFiles(dir: string): Promise<string[]> {
  return Object.keys(JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')).files)
}

/** A build into a fresh folder (or `out`), with the files it left there and those its manifest lists. */
async function built(more: Partial<BuildOptions>, out?: string) {
  const dir = out ?? (await mkdtemp(join(tmpdir(), 'almanac-switch-')))
  if (!out) dirs.push(dir)
  const result = await buildSite(buildOptions(store, dir, more))
  const onDisk = (await files(dir)).sort()
  expect(onDisk.filter((f) => f !== 'manifest.json')).toEqual((await manifestFiles(dir)).sort())
  return { dir, result, onDisk }
}

const WIDE = /(^|\/)events\/per_page\/50(\/page\/\d+)?\.json$/

describe('build switches', () => {
  it('writes no per_page=50 copies of the event lists by default, and no list links to one', async () => {
    const { dir, onDisk } = await built({})
    expect(onDisk.filter((f) => f.includes('per_page'))).toEqual([])
    expect(onDisk).toContain('wp-json/calendar/events/v1/events.json')
    expect(onDisk).toContain('ms/wp-json/calendar/events/v1/events/by-slug/konsert-musim-panas.json')
    for (const file of onDisk.filter((f) => f.endsWith('.json')))
      expect(await readFile(join(dir, file), 'utf8'), file).not.toMatch(/per_page\/50/)
  })

  it('writes the per_page=50 copies with widePages, each the live answer at that size, in every language', async () => {
    const { dir, onDisk } = await built({ widePages: true })
    const wide = onDisk.filter((f) => WIDE.test(f))
    expect(wide).toContain('wp-json/calendar/events/v1/events/per_page/50.json')
    expect(wide.filter((f) => f.startsWith('ta/'))).toHaveLength(wide.length / 4)
    const live = testApp(store)
    const answer = await (
      await live.fetch(new Request(`${testSite().url}/wp-json/calendar/events/v1/events?per_page=50`))
    ).json()
    const file = JSON.parse(await readFile(join(dir, 'wp-json/calendar/events/v1/events/per_page/50.json'), 'utf8'))
    expect(file.events.map((e: { id: number }) => e.id)).toEqual(answer.events.map((e: { id: number }) => e.id))
    expect(file.total).toBe(answer.total)
  })

  it('removes the per_page=50 copies a previous build wrote, when built again without them', async () => {
    const { dir } = await built({ widePages: true })
    const { onDisk, result } = await built({}, dir)
    expect(onDisk.filter((f) => f.includes('per_page'))).toEqual([])
    expect(result.removed).toBeGreaterThan(0)
  })

  it('writes only the languages asked for, the default one at the root, and says so in the manifest', async () => {
    const { onDisk } = await built({ languages: ['en', 'ms'] })
    expect(onDisk.some((f) => f.startsWith('ms/'))).toBe(true)
    expect(onDisk.some((f) => f.startsWith('wp-json/'))).toBe(true)
    expect(onDisk.filter((f) => f.startsWith('zh-hans/') || f.startsWith('ta/'))).toEqual([])
  })

  it('writes a language other than the default alone, under its prefix, and nothing at the root but host files', async () => {
    const { dir, onDisk } = await built({ languages: ['ta'] })
    expect(onDisk.filter((f) => !f.startsWith('ta/') && !f.startsWith('media/'))).toEqual([
      '_headers',
      '_redirects',
      'manifest.json',
      'slugs.json',
    ])
    const root = JSON.parse(await readFile(join(dir, 'ta/wp-json/calendar/events/v1/events.json'), 'utf8'))
    expect(root.events.length).toBeGreaterThan(0)
  })

  it('writes no record by slug without slugPages, and no file links to one; by id, all are there', async () => {
    const { dir, onDisk } = await built({ slugPages: false })
    expect(onDisk.filter((f) => f.includes('by-slug'))).toEqual([])
    const withSlugs = await built({})
    expect(onDisk).toEqual(withSlugs.onDisk.filter((f) => !f.includes('by-slug')))
    for (const file of onDisk.filter((f) => f.endsWith('.json') && /\/v1\/\w+\//.test(f)))
      expect(await readFile(join(dir, file), 'utf8'), file).not.toContain('by-slug/')
  })

  it('leaves a link into a language it does not write at its live address, and links the others to files', async () => {
    const { dir } = await built({ languages: ['en', 'zh-hans'] })
    const event = JSON.parse(await readFile(join(dir, 'wp-json/calendar/events/v1/events/7.json'), 'utf8'))
    expect(event.translations.ms.rest_url).toBe(`${testSite().url}/wp-json/calendar/events/v1/events/7?ml_language=ms`)
    const gala = JSON.parse(
      await readFile(join(dir, 'wp-json/calendar/events/v1/events/by-slug/gala-five.json'), 'utf8'),
    )
    expect(gala.translations['zh-hans'].rest_url).toMatch(/^https:\/\/cdn\.example\.org\/zh-hans\/.*\.json$/)
  })

  it('leaves the files of languages no longer asked for out of the next build', async () => {
    const { dir } = await built({})
    const { onDisk } = await built({ languages: ['en'] }, dir)
    expect(onDisk.filter((f) => /^(zh-hans|ms|ta)\//.test(f))).toEqual([])
  })
})
