import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createMemoryDriver } from '../../src/content/store/memory-driver.ts'
import { createStore, type Store } from '../../src/content/store.ts'
import { call, testApp } from '../helpers.ts'

// Event windows follow each change to an event (a removal and an insertion) instead of being built
// again over the whole calendar. Whatever the changes, a running app's lists must be a fresh app's
// over the same store, byte for byte.

const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)
const DAY = 86_400_000
const BASE = Date.parse('2026-11-10T00:00:00Z')

interface Shape {
  day: number
  hours: number
  /** Long events (weeks) fall outside a window's width: its irregular ones. */
  long: boolean
  hidden: boolean
  draft: boolean
  featured: boolean
}

type Step =
  | { op: 'create'; shape: Shape }
  | { op: 'update'; n: number; shape: Shape }
  | { op: 'delete'; n: number }
  | { op: 'list'; from: number; days: number; perPage: number; page: number; featured: boolean }

const shape = fc.record({
  day: fc.integer({ min: 0, max: 40 }),
  hours: fc.integer({ min: 0, max: 30 }),
  long: fc.boolean(),
  hidden: fc.boolean(),
  draft: fc.boolean(),
  featured: fc.boolean(),
})
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant('create' as const), shape }),
  fc.record({ op: fc.constant('update' as const), n: fc.nat(), shape }),
  fc.record({ op: fc.constant('delete' as const), n: fc.nat() }),
  fc.record({
    op: fc.constant('list' as const),
    from: fc.integer({ min: -5, max: 45 }),
    days: fc.integer({ min: 0, max: 60 }),
    perPage: fc.constantFrom(1, 3, 9, 50),
    page: fc.integer({ min: 1, max: 3 }),
    // A filter besides the dates: the matches are found by walking what the window finds in the dates.
    featured: fc.boolean(),
  }),
)

const wall = (instant: number) => new Date(instant).toISOString().slice(0, 19).replace('T', ' ')

function eventData(id: number, s: Shape): Record<string, unknown> {
  const start = BASE + s.day * DAY + (id % 24) * 3_600_000
  const end = start + (s.long ? 20 * DAY : s.hours * 3_600_000)
  return {
    id,
    title: `Event ${id}`,
    slug: `event-${id}`,
    start_date: wall(start),
    end_date: wall(end),
    timezone: 'UTC',
    date: '2026-01-01 00:00:00',
    ...(s.hidden ? { hide_from_listings: true } : {}),
    ...(s.draft ? { status: 'draft' } : {}),
    ...(s.featured ? { featured: true } : {}),
  }
}

async function storeOf(count: number): Promise<Store> {
  const store = await createStore(createMemoryDriver(), { defaultLanguage: 'en', fallback: true })
  for (let id = 1; id <= count; id++)
    await store.commit('events', `event-${id}`, {
      en: {
        data: eventData(id, {
          day: id % 30,
          hours: id % 5,
          long: id % 7 === 0,
          hidden: false,
          draft: false,
          featured: id % 3 === 0,
        }),
        body: '',
      },
    })
  return store
}

function queryOf(s: Extract<Step, { op: 'list' }>) {
  return new URLSearchParams({
    start_date: wall(BASE + s.from * DAY).slice(0, 10),
    end_date: wall(BASE + (s.from + s.days) * DAY).slice(0, 10),
    per_page: String(s.perPage),
    page: String(s.page),
    ...(s.featured ? { featured: 'true' } : {}),
  })
}

async function listOf(app: ReturnType<typeof testApp>, s: Extract<Step, { op: 'list' }>) {
  const answer = await call(app, `events?${queryOf(s)}`)
  return { status: answer.status, total: answer.headers.get('x-tec-total'), text: answer.text }
}

/** Every event a list finds (ids, in order), page after page of 50. */
async function allIds(app: ReturnType<typeof testApp>, s: Extract<Step, { op: 'list' }>, featured: boolean) {
  const ids: number[] = []
  for (let page = 1; page <= 4; page++) {
    const answer = await call(app, `events?${queryOf({ ...s, perPage: 50, page, featured })}`)
    if (answer.status !== 200) break
    for (const e of answer.body.events as { id: number; featured: boolean }[]) if (e.featured) ids.push(e.id)
  }
  return ids
}

describe('event windows after changes', () => {
  it('list exactly what a fresh app lists over the same store, after any creates, updates and deletes, with or without another filter', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 40, size: 'max' }), async (steps) => {
        const store = await storeOf(30)
        const app = testApp(store)
        const ids = store.list('events').map((r) => r.id)
        let next = 100
        for (const s of steps) {
          if (s.op === 'list') {
            expect(await listOf(app, s)).toEqual(await listOf(testApp(store), s))
            // Another filter besides the dates finds the date list's events that pass it, in the same order.
            if (s.featured) expect(await allIds(app, s, true)).toEqual(await allIds(app, s, false))
          } else if (s.op === 'create') {
            const id = next++
            ids.push(id)
            await store.commit('events', `event-${id}`, { en: { data: eventData(id, s.shape), body: '' } })
          } else if (ids.length > 0) {
            const id = ids[s.n % ids.length]!
            const stem = store.get('events', id)!.stem
            if (s.op === 'update')
              await store.commit('events', stem, { en: { data: eventData(id, s.shape), body: '' } })
            else {
              ids.splice(ids.indexOf(id), 1)
              await store.commit('events', stem, { en: null })
            }
          }
        }
      }),
      { numRuns: 40, seed: SEED },
    )
  })
})
