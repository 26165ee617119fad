import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite, type BuildOptions } from '../../src/prerender/site-builder.ts'
import { createStore, type Store } from '../../src/content/store.ts'
import { buildOptions, FIXTURES, filesUnder } from '../helpers.ts'

// By default the by-slug files are written while the site with them fits the host (1 GB); past it
// they are left out, and slugs.json, always written, leads a static client from a slug to the by-id file.

let store: Store
const dirs: string[] = []

beforeAll(async () => {
  store = await createStore(join(FIXTURES, 'reference', 'content'), { defaultLanguage: 'en', fallback: true })
})
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })))
})

const files = filesUnder

async function built(more: Partial<BuildOptions>) {
  const dir = await mkdtemp(join(tmpdir(), 'almanac-slugs-'))
  dirs.push(dir)
  const result = await buildSite(buildOptions(store, dir, more))
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'))
  const index = JSON.parse(await readFile(join(dir, 'slugs.json'), 'utf8')) as Record<
    string,
    Record<string, Record<string, number>>
  >
  return { dir, result, manifest, index, onDisk: await files(dir) }
}

const BY_SLUG = /^(?:(zh-hans|ms|ta)\/)?wp-json\/calendar\/events\/v1\/(\w+)\/by-slug\/(.+)\.json$/

describe('by-slug files and the size of a site', () => {
  it('are written by default when the site with them fits, and counted in the result', async () => {
    const { result, manifest, onDisk } = await built({})
    const bySlug = onDisk.filter((f) => BY_SLUG.test(f))
    expect(bySlug.length).toBeGreaterThan(0)
    expect(result.slugPages).toMatchObject({ files: bySlug.length, written: true })
    expect(manifest.slug_pages).toBe(true)
  })

  it('are left out by default when with them the site would pass the limit, and the result and manifest say so', async () => {
    const whole = await built({})
    const limit = whole.result.bytes - 1
    const { result, manifest, onDisk } = await built({ hostLimitBytes: limit })
    expect(onDisk.filter((f) => f.includes('by-slug'))).toEqual([])
    expect(onDisk).toEqual(whole.onDisk.filter((f) => !BY_SLUG.test(f)))
    expect(result.slugPages).toEqual({ ...whole.result.slugPages, written: false })
    expect(result.bytes + result.slugPages!.bytes).toBe(whole.result.bytes)
    expect(manifest.slug_pages).toBe(false)
    expect((await built({ hostLimitBytes: whole.result.bytes })).result.slugPages?.written).toBe(true)
  })

  it('are written past the limit when told, and never when told not to', async () => {
    const forced = await built({ hostLimitBytes: 1, slugPages: true })
    expect(forced.result.slugPages?.written).toBe(true)
    expect(forced.onDisk.some((f) => BY_SLUG.test(f))).toBe(true)
    const never = await built({ slugPages: false })
    expect(never.onDisk.some((f) => BY_SLUG.test(f))).toBe(false)
    expect(never.manifest.slug_pages).toBe(false)
  })

  it('leave behind slugs.json, which leads every slug to a by-id file with the by-slug file’s bytes', async () => {
    const whole = await built({})
    const { dir, index } = await built({ hostLimitBytes: 1 })
    const entries = Object.entries(index).flatMap(([lang, kinds]) =>
      Object.entries(kinds).flatMap(([kind, slugs]) =>
        Object.entries(slugs).map(([slug, id]) => ({ lang, kind, slug, id })),
      ),
    )
    const expected = whole.onDisk.flatMap((file) => {
      const [, lang = 'en', kind, slug] = BY_SLUG.exec(file) ?? []
      return kind ? [{ lang, kind, slug: decodeURIComponent(slug!), file }] : []
    })
    expect(entries.map(({ lang, kind, slug }) => `${lang} ${kind} ${slug}`).sort()).toEqual(
      expected.map(({ lang, kind, slug }) => `${lang} ${kind} ${slug}`).sort(),
    )
    for (const { lang, kind, slug, id } of entries) {
      const prefix = lang === 'en' ? '' : `${lang}/`
      const byId = await readFile(join(dir, `${prefix}wp-json/calendar/events/v1/${kind}/${id}.json`))
      const bySlug = expected.find((e) => e.lang === lang && e.kind === kind && e.slug === slug)!.file
      expect(byId.equals(await readFile(join(whole.dir, bySlug))), `${lang} ${kind} ${slug}`).toBe(true)
    }
  })
})
