import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app.ts'
import { createStore } from '../../src/content/store.ts'
import { createMarkdownIt, createFullMarkdownIt, MAX_MARKDOWN_CHARS } from '../../src/serialize/markdown-it.ts'
import { plainText, tokensText } from '../../src/serialize/feed/plain-text.ts'
import { proseHtml } from '../../src/serialize/prose.ts'
import { longestLoopDelay, NAMESPACE, send } from '../fuzz/harness.ts'
import { FIXTURES, testApp } from '../helpers.ts'

// A description that costs the renderer most of a second, written in a content file (a pull
// request), not through the API: nothing rendered it ahead of the first answer that shows it.
const HEAVY = '_a'.repeat(60_000)
// Past what markdown-it reads: the costliest pattern measured (~2.6 µs a character), 1.5 MB of it. Before the cap
// (src/serialize/markdown-it.ts) an answer that needed it before the worker thread had rendered it held the event
// loop ~4 s, and a text larger than the renderer's cache was never kept, so every such answer did.
const HOSTILE = '!['.repeat(750_000)

let dir: string
let app: App
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'almanac-long-markdown-'))
  await cp(resolve(FIXTURES, 'reference', 'content'), join(dir, 'content'), { recursive: true })
  const file = [
    '---',
    'id: 900',
    'title: Heavy',
    'start_date: 2026-12-10 10:00:00',
    'end_date: 2026-12-10 12:00:00',
    '---',
    HEAVY,
    '',
  ].join('\n')
  await writeFile(join(dir, 'content', 'events', 'heavy.en.md'), file)
  const hostile = file.replace('id: 900', 'id: 901').replace('title: Heavy', 'title: Hostile').replace(HEAVY, HOSTILE)
  await writeFile(join(dir, 'content', 'events', 'hostile.en.md'), hostile)
  const store = await createStore(join(dir, 'content'), { defaultLanguage: 'en', fallback: true, onProblem: () => {} })
  app = testApp(store)
}, 60_000)
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('long Markdown from content files', () => {
  it('is rendered off the event loop before an answer needs it', async () => {
    await app.textsReady
    let answer = { status: 0, body: '' }
    const held = await longestLoopDelay(async () => {
      answer = await send(app, `${NAMESPACE}/events/900`, {})
    })
    expect(answer.status).toBe(200)
    expect(answer.body).toContain('Heavy')
    expect(held, `the event loop was held ${held.toFixed(0)} ms`).toBeLessThan(100)
  })
})

describe('Markdown longer than markdown-it reads', () => {
  it('is served from a content file as escaped text, at once, in the JSON and in the feed', async () => {
    // Not waiting for the worker thread: the first answers come while it may still be busy.
    for (const path of ['events/901', 'events/901.ics', 'events?per_page=50']) {
      let answer = { status: 0, body: '' }
      const held = await longestLoopDelay(async () => {
        answer = await send(app, `${NAMESPACE}/${path}`, {})
      })
      expect(answer.status, path).toBe(200)
      expect(answer.body, path).toContain(path.endsWith('.ics') ? '![![' : '<p>![![')
      // A bound on a hostile input, far from the seconds it took before (no timing of normal work).
      expect(held, `${path}: the event loop was held ${held.toFixed(0)} ms`).toBeLessThan(1_000)
    }
  })

  it('is served as escaped paragraphs past the bound, prose too; up to it rendered as before; prose read in linear time', () => {
    const render = createMarkdownIt()
    const full = createFullMarkdownIt()
    const over = `<b>bold</b> & *stars*\n\n${'[a'.repeat(MAX_MARKDOWN_CHARS / 2)}`
    expect(over.length).toBeGreaterThan(MAX_MARKDOWN_CHARS)
    // Compared as booleans: a failure would otherwise print 32 KB.
    const escaped = `<p>&lt;b&gt;bold&lt;/b&gt; &amp; *stars*</p>\n<p>${'[a'.repeat(MAX_MARKDOWN_CHARS / 2)}</p>`
    expect(render(over) === escaped).toBe(true)
    expect(plainText(over) === over).toBe(true)
    const at = `*stars* ${'[a'.repeat(MAX_MARKDOWN_CHARS / 2 - 4)}`
    expect(at.length).toBe(MAX_MARKDOWN_CHARS)
    expect(render(at).startsWith('<p><em>stars</em>')).toBe(true)
    expect(render(at) === full(at)).toBe(true)
    expect(plainText(at) === tokensText(at)).toBe(true)
    const paragraphs = (count: number) =>
      Array.from({ length: count }, (_, i) => `Paragraph ${i} of a long programme, with music.`).join('\n\n')
    const prose = paragraphs(600)
    expect(prose.length).toBeLessThan(MAX_MARKDOWN_CHARS)
    expect(render(prose).startsWith('<p>Paragraph 0 of a long programme, with music.</p>')).toBe(true)
    expect(render(prose) === full(prose)).toBe(true)
    expect(plainText(prose) === tokensText(prose)).toBe(true)
    // Past the bound, prose keeps its paragraphs as text ('&#039;' is how a quote is escaped there).
    const long = paragraphs(2_000)
    expect(render(long) === full(long).trim().replaceAll("'", '&#039;')).toBe(true)
    // Short paragraphs before one mark at the end: each paragraph's search for a mark once ran to it (quadratic).
    const marks = `${'a\n\n'.repeat(10_000)}a_b`
    expect(marks.length).toBeLessThan(MAX_MARKDOWN_CHARS)
    expect(proseHtml(marks) === full(marks)).toBe(true)
  })
})
