import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseFrontMatter } from '../src/content/files/front-matter.ts'
import { stringifyFrontMatter } from '../src/content/files/front-matter-write.ts'
import { slugify } from '../src/content/slugs.ts'
import { as, call, json, writableApp } from './helpers.ts'

// Each case held the event loop for seconds with a backtracking regex (quadratic in the input);
// the bounds are generous for a loaded machine, and far below what the quadratic versions took.
const FAST_MS = 1000
function timed(work: () => unknown): number {
  const started = performance.now()
  work()
  return performance.now() - started
}

describe('text handling takes linear time', () => {
  it('reads and writes a body of 200,000 spaces followed by a word quickly', () => {
    const body = `${' '.repeat(200_000)}x`
    expect(timed(() => stringifyFrontMatter({ id: 1 }, body, ['id']))).toBeLessThan(FAST_MS)
    expect(timed(() => parseFrontMatter(`---\nid: 1\n---\n${body}`))).toBeLessThan(FAST_MS)
    expect(parseFrontMatter(`---\nid: 1\n---\n${body}  \n\n`).body).toBe(body)
  })

  it('makes a slug of a title with a long run of hyphens and marks quickly', () => {
    expect(timed(() => slugify(`a${'-\u0301'.repeat(100_000)}b`))).toBeLessThan(FAST_MS)
    expect(slugify('--Night  Market--')).toBe('night-market')
  })
})

describe('hostile text through the API', () => {
  let app: Awaited<ReturnType<typeof writableApp>>
  beforeAll(async () => {
    app = await writableApp('reference')
  })
  afterAll(async () => {
    await rm(app.dir, { recursive: true, force: true })
  })

  it('answers a path ending in 100,000 slashes and a character 404, quickly', async () => {
    const started = performance.now()
    const response = await call(app, `events/${'/'.repeat(100_000)}x`)
    expect(performance.now() - started).toBeLessThan(FAST_MS)
    expect(response.status).toBe(404)
  })

  it('stores a file name of 100,000 combining marks and hyphens quickly', () => {
    expect(timed(() => app.store.newStem('events', `x${'\u0301-'.repeat(100_000)}x`, 42))).toBeLessThan(FAST_MS)
  })

  it('indexes a description of 240 KB of < for search quickly, and still finds its title', async () => {
    const started = performance.now()
    const created = await call(
      app,
      'events',
      json(
        'POST',
        {
          title: 'Angle Brackets',
          start_date: '2026-12-20 18:00:00',
          end_date: '2026-12-20 20:00:00',
          description: '<'.repeat(240_000),
        },
        as('admin'),
      ),
    )
    expect(created.status).toBe(201)
    const found = await call(app, 'events?search=brackets&start_date=2026-12-01')
    expect(performance.now() - started).toBeLessThan(FAST_MS * 2)
    expect(found.body.events.map((event: { id: number }) => event.id)).toEqual([created.body.id])
  })

  it('keeps serving a list when one of its events has 2,000 nested quotes in its description', async () => {
    const created = await call(
      app,
      'events',
      json(
        'POST',
        {
          title: 'Deep Quotes',
          start_date: '2026-12-21 18:00:00',
          end_date: '2026-12-21 20:00:00',
          description: `${'>'.repeat(2000)} deep`,
        },
        as('admin'),
      ),
    )
    expect(created.status).toBe(201)
    const list = await call(app, 'events?start_date=2026-12-01&per_page=50')
    expect(list.status).toBe(200)
    expect(list.body.events.map((event: { title: string }) => event.title)).toContain('Deep Quotes')
  })
})

describe('Chinese search over a long description', () => {
  it('indexes a 300 KB Chinese description and finds its words, without exhausting memory', async () => {
    const app = await writableApp('reference')
    try {
      await call(app, 'events?search=warm&ml_language=zh-hans')
      const description = '今天晚上我们在公园举办音乐会，欢迎大家参加。'.repeat(14_000)
      const created = await call(
        app,
        'events?ml_language=zh-hans',
        json(
          'POST',
          { title: '长描述', start_date: '2026-12-20 18:00:00', end_date: '2026-12-20 20:00:00', description },
          as('admin'),
        ),
      )
      expect(created.status).toBe(201)
      const found = await call(
        app,
        `events?ml_language=zh-hans&start_date=2026-12-01&search=${encodeURIComponent('音乐会')}`,
      )
      expect(found.body.events.map((event: { id: number }) => event.id)).toContain(created.body.id)
    } finally {
      await rm(app.dir, { recursive: true, force: true })
    }
  }, 30_000)
})
