import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app.ts'
import { createStore, type Problem } from '../../src/content/store.ts'
import { MAX_PROBLEMS_PER_FILE } from '../../src/content/checks/problems.ts'
import { NAMESPACE, send } from './harness.ts'
import { FIXTURES, testApp } from '../helpers.ts'

// Content files from a stranger's pull request, each of a shape an adversarial review found (the store reads up to
// 4 MiB a file): a list of 200,000 invalid ids (a load threw RangeError past ~100,000 problems, and reported them
// in quadratic time below that), one real tag named 100,000 times (embedded that often in every answer, then 500s
// past V8's longest string), and a 1 MB title (its feed's name, folded by ical-generator a character at a time).

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
  await writeFile(join(events, 'invalid-ids.en.md'), fileOf(901, `tags: [${Array(200_000).fill(0).join(', ')}]`))
  await writeFile(join(events, 'one-tag.en.md'), fileOf(902, `tags: [${Array(100_000).fill(3).join(', ')}]`))
  await writeFile(
    join(events, 'long-title.en.md'),
    fileOf(903, '').replace('title: Hostile 903', `title: ${'a'.repeat(1_000_000)}`),
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
  it('a list of 200,000 invalid ids: the tree loads, and the file is told of in a bounded list', () => {
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

  it('a 1 MB title: its feed is named by the first thousand characters', async () => {
    const answer = await send(app, `${NAMESPACE}/events/903.ics`, {})
    expect(answer.status).toBe(200)
    const name = /^X-WR-CALNAME:([^\r]*(?:\r\n [^\r]*)*)/m.exec(answer.body)?.[1]?.replace(/\r\n /g, '') ?? ''
    expect(name).toBe('a'.repeat(1_000))
  })
})
