import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app.ts'
import { createStore, type Problem } from '../../src/content/store.ts'
import { MAX_PROBLEMS_PER_FILE } from '../../src/content/checks/problems.ts'
import { NAMESPACE, send } from './harness.ts'
import { as, call, FIXTURES, json, testApp, writableApp } from '../helpers.ts'

// Content files from a stranger's pull request, each of a shape an adversarial review found (the store reads up to
// 4 MiB a file, and front matter up to 512 KiB): a list of 150,000 invalid ids (a load threw RangeError past ~100,000 problems, and reported them
// in quadratic time below that), one real tag named 100,000 times (embedded that often in every answer, then 500s
// past V8's longest string), and a 400 KB title (its feed's name, folded by ical-generator a character at a time).

const fileOf = (id: number, extra: string) =>
  [
    '---',
    `id: ${id}`,
    `title: Hostile ${id}`,
    'start_date: 2026-12-10 10:00:00',
    'end_date: 2026-12-10 12:00:00',
    extra,
    '---',
    'Body',
    '',
  ].join('\n')

let dir: string
let app: App
const problems: Problem[] = []
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'almanac-hostile-content-'))
  await cp(resolve(FIXTURES, 'reference', 'content'), join(dir, 'content'), { recursive: true })
  const events = join(dir, 'content', 'events')
  await writeFile(join(events, 'invalid-ids.en.md'), fileOf(901, `tags: [${Array(150_000).fill(0).join(', ')}]`))
  await writeFile(join(events, 'one-tag.en.md'), fileOf(902, `tags: [${Array(100_000).fill(3).join(', ')}]`))
  await writeFile(
    join(events, 'long-title.en.md'),
    fileOf(903, '').replace('title: Hostile 903', `title: ${'a'.repeat(400_000)}`),
  )
  const store = await createStore(join(dir, 'content'), {
    defaultLanguage: 'en',
    fallback: true,
    onProblem: (problem) => problems.push(problem),
  })
  app = testApp(store)
}, 120_000)
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('hostile content files', () => {
  it('a list of 150,000 invalid ids: the tree loads, and the file is told of in a bounded list', () => {
    const told = problems.filter((problem) => problem.path === 'events/invalid-ids.en.md')
    expect(told.length).toBeGreaterThan(1)
    expect(told.length).toBeLessThanOrEqual(MAX_PROBLEMS_PER_FILE + 1)
    expect(told.at(-1)!.message).toMatch(/more problems/)
  })

  it('a real tag named 100,000 times: the event embeds it once', async () => {
    const answer = await send(app, `${NAMESPACE}/events/902`, {})
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.body).tags.map((tag: { id: number }) => tag.id)).toEqual([3])
    const list = await send(app, `${NAMESPACE}/events?tags=3&per_page=50`, {})
    expect(list.status).toBe(200)
    expect(list.body.length).toBeLessThan(200_000)
  })

  it('a 400 KB title: its feed is named by the first thousand characters, … marking the cut', async () => {
    const answer = await send(app, `${NAMESPACE}/events/903.ics`, {})
    expect(answer.status).toBe(200)
    const name = /^X-WR-CALNAME:([^\r]*(?:\r\n [^\r]*)*)/m.exec(answer.body)?.[1]?.replace(/\r\n /g, '') ?? ''
    expect(name).toBe(`${'a'.repeat(1_000)}…`)
  })
})

describe('front matter past its bound', () => {
  it('is not read: the file is told of, the tree loads without it', async () => {
    const tree = await mkdtemp(join(tmpdir(), 'almanac-hostile-front-'))
    try {
      await cp(resolve(FIXTURES, 'reference', 'content'), join(tree, 'content'), { recursive: true })
      const keys = Array.from({ length: 60_000 }, (_, i) => `k${i}: ${i}`).join('\n')
      await writeFile(join(tree, 'content', 'events', 'keys.en.md'), fileOf(904, keys))
      const told: Problem[] = []
      const store = await createStore(join(tree, 'content'), {
        defaultLanguage: 'en',
        fallback: true,
        onProblem: (problem) => told.push(problem),
      })
      expect(store.get('events', 904)).toBeUndefined()
      expect(told.map((problem) => problem.path)).toEqual(['events/keys.en.md'])
      expect(told[0]!.message).toMatch(/front matter of more than 512 KiB is not read/)
      expect(store.list('events').length).toBeGreaterThan(0)
    } finally {
      await rm(tree, { recursive: true, force: true })
    }
  })
})

describe('front matter of tens of thousands of unknown keys', () => {
  // Unknown keys are warned of and ignored, but every answer showing such a record copied them all (5 s a list page
  // of a series' occurrences), and each occurrence of a series copied them again as it was made (29 s to load one
  // daily series of 45,000 keys). What is served holds only the keys a file of its role may hold.
  const KEYS = 30_000
  const unknown = (prefix: string) => Array.from({ length: KEYS }, (_, i) => `${prefix}${i}: ${i}`).join('\n')
  const series = fileOf(906, `recurrence:\n  rrule: FREQ=DAILY\n${unknown('s')}`)
  const translation = ['---', 'title: Banyak kunci', unknown('t'), '---', 'Badan', ''].join('\n')

  it('serves none of them, in a record, its translation and every occurrence of a series', async () => {
    const tree = await mkdtemp(join(tmpdir(), 'almanac-hostile-keys-'))
    try {
      await cp(resolve(FIXTURES, 'reference', 'content'), join(tree, 'content'), { recursive: true })
      const events = join(tree, 'content', 'events')
      await writeFile(join(events, 'many-keys.en.md'), fileOf(905, unknown('k')))
      await writeFile(join(events, 'many-keys.ms.md'), translation)
      await writeFile(join(events, 'many-keys-series.en.md'), series)
      await writeFile(join(events, 'many-keys-series.ms.md'), translation)
      const told: Problem[] = []
      const store = await createStore(join(tree, 'content'), {
        defaultLanguage: 'en',
        fallback: true,
        onProblem: (problem) => told.push(problem),
      })
      const plain = store.get('events', 905)!
      const held = (data: object) => Object.keys(data).filter((key) => /^[kst]\d+$/.test(key))
      for (const lang of ['en', 'ms'] as const) expect(held(store.fieldsIn(plain, lang)!)).toEqual([])
      const occurrences = store.occurrencesOf(store.get('events', 906)!)
      expect(occurrences.length).toBeGreaterThan(300)
      for (const occurrence of occurrences)
        for (const file of occurrence.files.values()) expect(held(file.data)).toEqual([])
      // Still read past with a warning naming them, and kept on disk for the editor.
      const warned = told.filter((problem) => problem.path === 'events/many-keys.en.md').map((p) => p.message)
      expect(warned).toContain('k0: not a field of an event, so it is ignored')
      expect(warned.at(-1)).toMatch(/more fields are not fields of an event/)
      const app = testApp(store)
      for (const url of ['events/905', 'events?per_page=50', 'events?per_page=50&lang=ms', 'events.ics']) {
        const answer = await send(app, `${NAMESPACE}/${url}`, {})
        expect(answer.status, url).toBe(200)
        expect(answer.body, url).not.toMatch(/\b[kst]29999\b/)
      }
    } finally {
      await rm(tree, { recursive: true, force: true })
    }
  })

  it('are kept in the file by a write to the record', async () => {
    const writable = await writableApp('reference')
    try {
      const path = join(writable.content, 'events', 'many-keys.en.md')
      await writeFile(path, fileOf(905, unknown('k')))
      await writable.store.reload(['events/many-keys.en.md'])
      const updated = await call(writable, 'events/905', json('POST', { title: 'Renamed' }, as('editor')))
      expect(updated.status).toBe(200)
      expect(updated.body.title).toBe('Renamed')
      const text = await readFile(path, 'utf8')
      expect(text).toMatch(/^title: Renamed$/m)
      expect(text).toContain(`\nk0: 0\n`)
      expect(text).toContain(`\nk${KEYS - 1}: ${KEYS - 1}\n`)
    } finally {
      await rm(writable.dir, { recursive: true, force: true })
    }
  })
})

describe('a write whose front matter would pass the bound', () => {
  it('is refused with 413 and writes nothing, so no record is lost at the next reload', async () => {
    const writable = await writableApp('reference')
    try {
      const before = await treeTexts(writable.content)
      // An editor may send an excerpt of any length up to the body limit; it is written as front matter.
      const excerpt = 'Long excerpt. '.repeat(45_000)
      const body = { title: 'Huge', start_date: '2027-03-02 18:00:00', end_date: '2027-03-02 21:00:00', excerpt }
      const created = await call(writable, 'events', json('POST', body, as('editor')))
      expect(created.status).toBe(413)
      expect(created.body.code).toBe('rest_payload_too_large')
      expect(await treeTexts(writable.content)).toEqual(before)
    } finally {
      await rm(writable.dir, { recursive: true, force: true })
    }
  })
})

/** Every file of a tree with its text, to compare a tree before and after. */
async function treeTexts(root: string): Promise<Map<string, string>> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true })
  const texts = new Map<string, string>()
  for (const entry of entries.filter((one) => one.isFile()).sort((a, b) => (a.name < b.name ? -1 : 1)))
    texts.set(join(entry.parentPath, entry.name), await readFile(join(entry.parentPath, entry.name), 'utf8'))
  return texts
}
