import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createStore, type Store } from '../../src/content/store.ts'
import { createMemoryDriver } from '../../src/content/store/memory-driver.ts'
import { call, testApp } from '../helpers.ts'

// Lists with a search (and a category, dates, pages) over random trees, through the real app, against a naive
// reading: filter every event, sort by the documented order (UTC start, publication date, id), cut the page.
// Edits between queries move events in the start order, which the set walk's columns must follow.

const VOCABULARY = ['night', 'nightfall', 'market', 'jazz', 'jazzy', 'walk', 'gar', 'garden']
const HOUR = 3_600_000
const DAY = 24 * HOUR
const FIRST = Date.parse('2027-03-01T00:00:00Z')

interface Spec {
  day: number
  hour: number
  hours: number
  published: number
  status: 'publish' | 'draft'
  hidden: boolean
  words: string[]
  category: boolean
}

const spec: fc.Arbitrary<Spec> = fc.record({
  day: fc.integer({ min: 0, max: 8 }),
  hour: fc.integer({ min: 0, max: 2 }),
  hours: fc.oneof(fc.constantFrom(0, 1, 2), fc.integer({ min: 0, max: 120 })),
  published: fc.integer({ min: 1, max: 3 }),
  status: fc.constantFrom('publish', 'publish', 'publish', 'draft'),
  hidden: fc.constantFrom(false, false, false, true),
  // A rare word as well, so that a search's set is often smaller than what the dates hold (the set walk).
  words: fc.array(fc.oneof({ arbitrary: fc.constantFrom(...VOCABULARY), weight: 9 }, fc.constant('quartet')), {
    minLength: 1,
    maxLength: 3,
  }),
  category: fc.boolean(),
})

const query = fc.record({
  words: fc.array(fc.constantFrom(...VOCABULARY, 'ni', 'j', 'gard', 'quartet', 'quar', 'quar'), {
    minLength: 1,
    maxLength: 2,
  }),
  from: fc.integer({ min: -1, max: 8 }),
  // Mostly short ranges, so that a rare word's set is smaller than what the dates hold (the set walk).
  days: fc.oneof({ arbitrary: fc.integer({ min: 0, max: 2 }), weight: 3 }, fc.integer({ min: 0, max: 12 })),
  category: fc.boolean(),
  page: fc.integer({ min: 1, max: 4 }),
  perPage: fc.integer({ min: 1, max: 7 }),
})

const wall = (instant: number) => new Date(instant).toISOString().slice(0, 19).replace('T', ' ')

function eventData(id: number, s: Spec): Record<string, unknown> {
  const start = FIRST + s.day * DAY + s.hour * HOUR
  return {
    id,
    title: s.words.join(' '),
    slug: `e${id}`,
    status: s.status,
    date: `2027-01-0${s.published} 00:00:00`,
    start_date: wall(start),
    end_date: wall(start + s.hours * HOUR),
    timezone: 'UTC',
    ...(s.hidden ? { hide_from_listings: true } : {}),
    ...(s.category ? { categories: [1] } : {}),
  }
}

function eventFile(id: number, s: Spec): string {
  const lines = Object.entries(eventData(id, s)).map(([k, v]) => `${k}: ${Array.isArray(v) ? `[${v}]` : v}`)
  return `---\n${lines.join('\n')}\n---\n`
}

/** What a list must show, read straight from the specs. */
function expected(specs: Map<number, Spec>, q: Query) {
  const startMin = FIRST + q.from * DAY
  const endMax = FIRST + (q.from + q.days) * DAY + DAY - 1000
  const last = q.words[q.words.length - 1]!
  const matched = [...specs]
    .filter(([, s]) => s.status === 'publish' && !s.hidden && (!q.category || s.category))
    .map(([id, s]) => ({ id, s, start: FIRST + s.day * DAY + s.hour * HOUR }))
    .filter(({ s, start }) => start >= startMin && start + s.hours * HOUR <= endMax)
    .filter(
      ({ s }) => q.words.slice(0, -1).every((w) => s.words.includes(w)) && s.words.some((w) => w.startsWith(last)),
    )
    .sort((a, b) => a.start - b.start || a.s.published - b.s.published || a.id - b.id)
  const offset = (q.page - 1) * q.perPage
  return { total: matched.length, ids: matched.slice(offset, offset + q.perPage).map((m) => m.id) }
}

type Query = typeof query extends fc.Arbitrary<infer Q> ? Q : never

function pathOf(q: Query): string {
  const params = new URLSearchParams({
    search: q.words.join(' '),
    start_date: wall(FIRST + q.from * DAY).slice(0, 10),
    end_date: wall(FIRST + (q.from + q.days) * DAY).slice(0, 10),
    page: String(q.page),
    per_page: String(q.perPage),
  })
  if (q.category) params.set('categories', '1')
  return `events?${params}`
}

async function load(specs: Map<number, Spec>): Promise<Store> {
  const files: Record<string, string> = { 'categories/c1.en.md': '---\nid: 1\nname: Music\nslug: music\n---\n' }
  for (const [id, s] of specs) files[`events/e${id}.en.md`] = eventFile(id, s)
  return createStore(createMemoryDriver(files), { defaultLanguage: 'en', fallback: true, onProblem: () => {} })
}

async function check(app: ReturnType<typeof testApp>, specs: Map<number, Spec>, q: Query) {
  const want = expected(specs, q)
  const res = await call(app, pathOf(q))
  // A page past the last is 404 (event-archive-page-not-found); a first page of nothing is an empty list.
  expect(res.status, pathOf(q)).toBe(q.page > 1 && want.ids.length === 0 ? 404 : 200)
  if (res.status === 404) return
  expect({ total: res.body.total, ids: res.body.events.map((e: { id: number }) => e.id) }).toEqual(want)
}

describe('a search list', () => {
  it('pages through exactly what filtering, sorting and slicing every event gives, across edits', async () => {
    // Dense ids (an array by id) and spread ones (a Map) are both looked up by place.
    const trees = fc
      .tuple(fc.array(spec, { minLength: 1, maxLength: 40, size: 'max' }), fc.constantFrom(1, 100_003))
      .map(([list, step]) => new Map(list.map((s, i) => [100 + i * step, s])))
    const edit = fc.tuple(fc.nat(), spec)
    await fc.assert(
      fc.asyncProperty(trees, fc.array(fc.tuple(query, edit), { minLength: 1, maxLength: 8 }), async (tree, steps) => {
        const specs = new Map(tree) // edited below; fast-check may run a generated value again while shrinking
        const store = await load(specs)
        const app = testApp(store)
        for (const [q, [pick, changed]] of steps) {
          await check(app, specs, q)
          const id = [...specs.keys()][pick % specs.size]!
          specs.set(id, changed)
          const record = store.get('events', id)!
          await store.commit('events', record.stem, { en: { data: eventData(id, changed), body: '' } })
          await check(app, specs, q)
        }
      }),
      { numRuns: 150, seed: Number(process.env.FC_SEED ?? Date.now() % 2 ** 31) },
    )
  }, 60_000)
})
