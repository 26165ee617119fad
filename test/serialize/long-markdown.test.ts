import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app.ts'
import { createStore } from '../../src/content/store.ts'
import { longestLoopDelay, NAMESPACE, send } from '../fuzz/harness.ts'
import { FIXTURES, testApp } from '../helpers.ts'

// A description that costs the renderer most of a second, written in a content file (a pull
// request), not through the API: nothing rendered it ahead of the first answer that shows it.
const HEAVY = '_a'.repeat(60_000)

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
