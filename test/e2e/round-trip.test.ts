import { rm } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../src/app.ts'
import { createStore } from '../../src/content/store.ts'
import { as, call, json, SAMPLE_NOW, testSite, writableApp } from '../helpers.ts'

/** A small seeded generator, so a failure names a case that can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff
    return seed / 0x7fffffff
  }
}

const PIECES = [
  'Jazz',
  '---',
  ': colon',
  '# hash',
  "quote'",
  '"double"',
  '新年',
  'தமிழ்',
  'Malam',
  '12:30',
  'yes',
  'null',
  '[x]',
  '{y}',
  '&a',
  '*b',
  '<b>html</b>',
  '  ',
  'émigré',
  '__proto__',
]
const ZONES = ['Asia/Singapore', 'Europe/London', 'America/New_York', 'UTC']

describe('write → file → reload → read', () => {
  it('gives back the same event, for 40 random events of hostile text', async () => {
    const app = await writableApp('reference')
    const next = random(42)
    const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)]!
    const text = (n: number) =>
      Array.from({ length: n }, () => pick(PIECES))
        .join(' ')
        .trim() || 'x'
    const created: number[] = []
    try {
      for (let i = 0; i < 40; i++) {
        const day = 1 + Math.floor(next() * 27)
        const body = {
          title: text(3),
          description: `${text(8)}\n\n${text(5)}`,
          excerpt: text(2),
          start_date: `2027-03-${String(day).padStart(2, '0')} 0${Math.floor(next() * 9)}:30:00`,
          end_date: `2027-03-${String(day + 1).padStart(2, '0')} 10:15:00`,
          timezone: pick(ZONES),
          cost: pick(['Free', 'S$10 - S$20', '15', ['5', '10']]),
          featured: next() > 0.5,
          all_day: next() > 0.8,
          website: pick(['', 'https://example.org/a?b=c&d=e']),
          categories: [2],
          tags: [3],
        }
        const response = await call(
          app,
          `events?ml_language=${pick(['en', 'ms', 'zh-hans', 'ta'])}`,
          json('POST', body, as('admin')),
        )
        expect(response.status, JSON.stringify(body)).toBe(201)
        created.push(response.body.id)
      }
      const reloaded = createApp({
        store: await createStore(app.content, { defaultLanguage: 'en', fallback: true }),
        site: testSite(),
        perPage: 9,
        maxPerPage: 50,
        fallback: true,
        now: () => SAMPLE_NOW,
      })
      for (const id of created) {
        for (const lang of ['en', 'ms', 'zh-hans', 'ta']) {
          const before = await call(app, `events/${id}?ml_language=${lang}`)
          const after = await call(reloaded, `events/${id}?ml_language=${lang}`)
          expect(after.text, `event ${id} in ${lang}`).toBe(before.text)
        }
      }
    } finally {
      await rm(app.dir, { recursive: true, force: true })
    }
  })
})
