import { rm } from 'node:fs/promises'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { as, call, json, writableApp, type Login } from '../helpers.ts'
import { reloadApp, snapshot } from './writes-tree.ts'

// Random event writes with inline venues and organizers and terms by name. A write with one bad
// part anywhere is refused whole (4xx, tree byte-identical); a good one answers 201 with ids of its
// own for every new record, and a restart serves the same answers. Seeded: FC_SEED replays a run.
const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)
const EVENT = { title: 'Fuzz', start_date: '2026-12-20 18:00:00', end_date: '2026-12-20 23:00:00' }

let app: Awaited<ReturnType<typeof writableApp>>
beforeAll(async () => {
  app = await writableApp('reference')
})
afterAll(async () => {
  await rm(app.dir, { recursive: true, force: true })
})

const name = fc.constantFrom('Alpha', 'alpha', 'Beta', 'Town Hall', 'Acme Events', 'Gamma Hall', '新 Hall')
const venue = fc.oneof(
  fc.constant(4),
  fc.record({ venue: name, city: fc.constantFrom('KL', 'Ipoh') }, { requiredKeys: ['venue'] }),
)
const organizer = fc.oneof(
  fc.constant(5),
  fc.record({ organizer: name, email: fc.constant('a@b.test') }, { requiredKeys: ['organizer'] }),
)
const terms = fc.array(fc.constantFrom('music', 'Outdoor', 'Fresh Term', 'Другое'), { maxLength: 3 })
const role = fc.constantFrom<Login>('admin', 'editor', 'author', 'contributor')

const goodBody = fc
  .record(
    {
      venue,
      organizer: fc.array(organizer, { minLength: 1, maxLength: 3 }),
      categories: terms,
      tags: terms,
      title: fc.constantFrom('Fuzz', 'Fuzz Two'),
    },
    { requiredKeys: [] },
  )
  .map((parts) => ({ ...EVENT, ...parts }))

/** One part that must make the whole write fail. */
const poison = fc.constantFrom<Record<string, unknown>>(
  { end_date: '2026-12-19 10:00:00' },
  { organizer: [{ organizer: 'Fine Org' }, { organizer: '' }] },
  { organizer: [{ organizer: 'Fine Org' }, { organizer: 'Bad Site', website: 'not a url' }] },
  { venue: [{ venue: 'One' }, { venue: 'Two' }] },
  { venue: { venue: 'Fine Hall', author: 999999 }, organizer: [{ organizer: 'Fine Org' }] },
  { organizer: [{ organizer: 'Fine Org' }], categories: ['New Term'], author: 999999 },
  { organizer: [{ organizer: 'Fine Org' }, 999999] },
  { start_date: '+100000 years' },
  { description: '' },
  { status: 'nonsense' },
)

const PATHS = ['events', 'venues', 'organizers', 'categories', 'tags']

async function answers(target: Parameters<typeof call>[0]) {
  return Promise.all(
    PATHS.map(async (path) => (await call(target, `${path}?per_page=50`, { headers: as('admin') })).text),
  )
}

describe('event writes with inline records, at random', () => {
  it('refuses a write with any bad part whole, leaving the tree byte-identical', async () => {
    await fc.assert(
      fc.asyncProperty(goodBody, poison, role, async (body, bad, login) => {
        const before = await snapshot(app.content)
        const seen = await answers(app)
        const response = await call(app, 'events', json('POST', { ...body, ...bad }, as(login)))
        expect(response.status, response.text).toBeGreaterThanOrEqual(400)
        expect(response.status, response.text).toBeLessThan(500)
        expect(await snapshot(app.content)).toEqual(before)
        expect(await answers(app)).toEqual(seen)
      }),
      { numRuns: 25, seed: SEED },
    )
  })

  it('answers 201 with distinct ids for every good write, and a restart serves the same answers', async () => {
    await fc.assert(
      fc.asyncProperty(goodBody, role, async (body, login) => {
        const response = await call(app, 'events', json('POST', body, as(login)))
        expect(response.status, response.text).toBe(201)
        const linked = [response.body.venue?.id, ...response.body.organizer.map((o: { id: number }) => o.id)].filter(
          (id) => id !== undefined,
        )
        expect(linked).not.toContain(response.body.id)
        expect(new Set(response.body.organizer.map((o: { id: number }) => o.id)).size).toBe(
          response.body.organizer.length,
        )
      }),
      { numRuns: 25, seed: SEED },
    )
    const fresh = await reloadApp(app.content, app.dir)
    expect(fresh.problems).toEqual([])
    expect(await answers(fresh)).toEqual(await answers(app))
  })
})
