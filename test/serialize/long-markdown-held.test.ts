import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { App } from '../../src/app.ts'
import { createStore, type Store } from '../../src/content/store.ts'
import { OFF_THREAD_FROM } from '../../src/serialize/markdown.ts'
import { NAMESPACE, send } from '../fuzz/harness.ts'
import { FIXTURES, testApp } from '../helpers.ts'

// Every text rendered on this thread, counted through the renderer the app's caches make here (the Markdown worker
// thread loads its own, uncounted): a long text rendered here held the event loop up to ~0.1 s each.
const here = vi.hoisted(() => ({ long: [] as string[] }))
vi.mock('../../src/serialize/markdown-it.ts', async (original) => {
  const actual = await original<typeof import('../../src/serialize/markdown-it.ts')>()
  return {
    ...actual,
    createMarkdownIt: () => {
      const render = actual.createMarkdownIt()
      return (markdown: string) => {
        if (markdown.length >= 4_096) here.long.push(markdown)
        return render(markdown)
      }
    },
  }
})

// 120 events in two languages, each text long enough to go to the worker: with their HTML some 14 Mi characters,
// three times what the renderer's bounded cache holds, so that it lets every one of them go while they are listed.
const EVENTS = 120
const body = (i: number, lang: string) =>
  `Event ${i} in ${lang}, a long programme. ${'Music and words. '.repeat(1_400)}`
const excerpt = (i: number, lang: string) => `Excerpt ${i} in ${lang}: ${'an evening of music. '.repeat(220)}`

let dir: string
let store: Store
let app: App
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'almanac-held-markdown-'))
  await cp(resolve(FIXTURES, 'reference', 'content'), join(dir, 'content'), { recursive: true })
  for (let i = 0; i < EVENTS; i++)
    for (const lang of ['en', 'ms']) {
      const head =
        lang === 'en' ? [`id: ${7000 + i}`, 'start_date: 2027-07-14 19:00:00', 'end_date: 2027-07-14 22:00:00'] : []
      const file = [
        '---',
        ...head,
        `title: Long ${i} ${lang}`,
        `excerpt: "${excerpt(i, lang)}"`,
        '---',
        body(i, lang),
        '',
      ]
      await writeFile(join(dir, 'content', 'events', `long-${i}.${lang}.md`), file.join('\n'))
    }
  store = await createStore(join(dir, 'content'), { defaultLanguage: 'en', fallback: true, onProblem: () => {} })
  app = testApp(store)
  await app.textsReady
}, 120_000)
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('long Markdown of the records served', () => {
  it('is rendered off the event loop at start, and never again on it, however many long texts the lists show', async () => {
    expect(excerpt(0, 'en').length).toBeGreaterThanOrEqual(OFF_THREAD_FROM)
    here.long.length = 0
    for (const lang of ['', '&ml_language=ms'])
      for (let page = 1; page <= Math.ceil(EVENTS / 50); page++) {
        const path = `events?per_page=50&page=${page}&start_date=2027-07-14&end_date=2027-07-15${lang}`
        const answer = await send(app, `${NAMESPACE}/${path}`, {})
        expect(answer.status, path).toBe(200)
        expect(answer.body, path).toContain('Music and words. Music and words.')
      }
    // Single reads show JSON-LD too: the excerpt, escaped.
    for (const id of [7000, 7001, 7000 + EVENTS - 1])
      expect((await send(app, `${NAMESPACE}/events/${id}`, {})).status).toBe(200)
    expect(here.long.map((text) => text.slice(0, 30))).toEqual([])
  })

  it('lets go of a text when its record changes or goes, and holds the new one', async () => {
    const markdown = app.context().caches.markdown
    const before = markdown.held()
    // Two texts of each language's file: the body (its own first paragraph, held twice) and the excerpt.
    expect(before.texts).toBe(EVENTS * 2 * 2)
    const record = store.get('events', 7000)!
    await store.commit('events', record.stem, { en: { data: record.source.data, body: body(7000, 'edited') } })
    await store.commit('events', store.get('events', 7001)!.stem, { en: null, ms: null })
    expect(markdown.held().texts).toBe(before.texts - 2 * 2)
    // A write through the API waits for its texts to be rendered (`prepareMarkdownOf`); this commit did not.
    await markdown.prepare(body(7000, 'edited'))
    here.long.length = 0
    const answer = await send(app, `${NAMESPACE}/events/7000`, {})
    expect(answer.body).toContain('Event 7000 in edited')
    expect(here.long).toHaveLength(0)
  })
})
