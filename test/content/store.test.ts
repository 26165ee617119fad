import { describe, expect, it } from 'vitest'
import { createStore, type Problem } from '../../src/content/store.ts'
import { call, fixtureApp } from '../helpers.ts'
import { type DriverName, DRIVERS, readTree } from './store-trees.ts'

// The store's reading runs over both drivers (docs/architecture.md §5): the same answers from a
// folder on disk and from the same files in memory.

describe.each(DRIVERS)('the content store over the %s driver', (driver: DriverName) => {
  async function load(name: string) {
    const problems: Problem[] = []
    const store = await createStore(await readTree(driver, name), {
      defaultLanguage: 'en',
      fallback: true,
      onProblem: (problem) => problems.push(problem),
    })
    return { store, problems }
  }

  it('reports each broken file once, with its path and the reason', async () => {
    const { problems } = await load('broken')
    const byFile = (path: string) => problems.filter((p) => p.path === path).map((p) => p.message)
    expect(byFile('events/invalid-yaml.en.md')).toEqual([expect.stringMatching(/^cannot be read: /)])
    expect(byFile('events/missing-title.en.md')).toEqual([
      'title: missing; an event needs id, title, start_date and end_date',
    ])
    expect(byFile('events/unknown-timezone.en.md')).toEqual([
      'timezone: "Mars/Olympus_Mons" is not an IANA time zone; use a name such as Europe/London or Asia/Kuala_Lumpur',
    ])
    expect(byFile('events/end-before-start.en.md')).toEqual([
      'end_date: "2026-12-01 20:00:00" is before start_date "2026-12-02 19:00:00"; an event cannot end before it starts',
    ])
    expect(byFile('events/duplicate-id.en.md')).toEqual([
      'id 100 is already used by events/a-good-event; of two files the one whose path sorts first keeps an id, so remove the id: line of this one and run almanac check --fix',
    ])
    expect(byFile('events/duplicate-slug.en.md')).toEqual([
      'slug "good-event" (en) is already used by events/a-good-event.en.md; of two files the one whose path sorts first keeps a slug, so give this one another',
    ])
    expect(byFile('events/translation-without-source.ms.md')).toEqual([
      'no file of this record has an id, so it has no source file',
    ])
    expect(byFile('events/unknown-language.fr.md')).toEqual(['unknown language "fr" (expected en, zh-hans, ms or ta)'])
    expect(byFile('events/impossible-date.en.md')).toEqual([
      'start_date: "2026-02-30 19:00:00" is not a real date and time (no such day, hour or minute)',
    ])
    expect(byFile('events/wrong-type.en.md')).toEqual(['featured: "maybe" is not true or false'])
    expect(byFile('tags/term-id-clash.en.md')).toEqual([
      'id 1 is already used by categories/music; of two files the one whose path sorts first keeps an id, so remove the id: line of this one and run almanac check --fix',
    ])
    expect(new Set(problems.map((p) => `${p.path}|${p.message}`)).size).toBe(problems.length)
  })

  it('keeps event wall-clock times exactly as written, quoted or not', async () => {
    const { store } = await load('reference')
    const concert = store.get('events', 7)!
    expect(concert.source.data.start_date).toBe('2026-11-25 19:00:00')
    expect(typeof concert.source.data.start_date).toBe('string')
  })

  it('reads zip codes with leading zeros as text when quoted, and numbers in text fields as text', async () => {
    const { store } = await load('reference')
    expect(store.get('venues', 4)!.source.data.zip).toBe('62701')
  })

  it('finds records by slug per language, with the source slug as fallback', async () => {
    const { store } = await load('reference')
    expect(store.bySlug('events', 'ms', 'konsert-musim-panas')?.id).toBe(7)
    expect(store.bySlug('events', 'en', 'konsert-musim-panas')).toBeUndefined()
    expect(store.bySlug('events', 'ta', 'summer-concert')?.id).toBe(7)
  })

  it('answers which kind owns an id in each id space', async () => {
    const { store } = await load('reference')
    expect(store.kindOfId('post', 4)).toBe('venues')
    expect(store.kindOfId('term', 3)).toBe('tags')
    expect(store.kindOfId('post', 999)).toBeUndefined()
  })
})

describe('the content store behind the app', () => {
  it('keeps serving the good records next to the broken ones', async () => {
    const app = await fixtureApp('broken')
    const response = await call(app, 'events/100')
    expect(response.status).toBe(200)
    expect(response.body.title).toBe('A Good Event')
    expect((await call(app, 'events/101')).status).toBe(404)
  })
})
