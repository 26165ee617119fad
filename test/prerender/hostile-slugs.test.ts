import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createStore } from '../../src/content/store.ts'
import { buildSite } from '../../src/prerender/site-builder.ts'
import { buildOptions, FIXTURES, filesUnder, testApp } from '../helpers.ts'

// A slug is any text, and a content file may come from a stranger: a by-slug file is named by its slug, and
// `../../venues` once overwrote the venues list with an event (a slug climbing out of the folder stopped the
// build). Every URL's file stays one name in its own folder (src/prerender/file-layout.ts), and a slug that holds a
// slash or is a dot segment has no by-slug file at all (its escaped name is another slug's text): slugs.json finds it.

const HOSTILE = {
  'gala-five.en.md': '../../venues',
  'all-day-fair.en.md': '..',
  'plain-meetup.en.md': '../../../../../../../escape',
}
let root: string
const VENUES_URL = 'http://127.0.0.1:8089/wp-json/calendar/events/v1/venues'
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'almanac-hostile-slugs-'))
  await cp(join(FIXTURES, 'reference', 'content'), join(root, 'content'), { recursive: true })
  for (const [file, slug] of Object.entries(HOSTILE)) {
    const path = join(root, 'content', 'events', file)
    const text = await readFile(path, 'utf8')
    await writeFile(path, text.replace(/^slug: .*$/m, `slug: ${JSON.stringify(slug)}`))
  }
})
afterAll(() => rm(root, { recursive: true, force: true }))

describe('a build over slugs that climb', () => {
  it('writes every file where its URL says, the lists untouched, and nothing outside its folder', async () => {
    const store = await createStore(join(root, 'content'), { defaultLanguage: 'en', fallback: true })
    const out = join(root, 'out', 'dist')
    await buildSite(buildOptions(store, out, { slugPages: true }))
    const live = await (await testApp(store).fetch(new Request(`${VENUES_URL}`))).json()
    const venues = JSON.parse(await readFile(join(out, 'wp-json/calendar/events/v1/venues.json'), 'utf8'))
    expect(venues.id).toBeUndefined()
    expect(venues.venues.map((venue: { id: number }) => venue.id)).toEqual(
      live.venues.map((venue: { id: number }) => venue.id),
    )
    expect(await filesUnder(join(root, 'out'))).toEqual((await filesUnder(out)).map((file) => `dist/${file}`))
    const bySlug = (await filesUnder(out)).filter((file) => file.includes('/by-slug/'))
    expect(bySlug.length).toBeGreaterThan(0)
    expect(bySlug.filter((file) => file.includes('..') || file.includes('%2F'))).toEqual([])
    const index = JSON.parse(await readFile(join(out, 'slugs.json'), 'utf8'))
    expect(index.en.events['../../venues']).toBe(11)
  })
})
