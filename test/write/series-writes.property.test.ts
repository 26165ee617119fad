import { rm } from 'node:fs/promises'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { occurrenceId } from '../../src/content/model/recurrence.ts'
import { as, call, json, writableApp } from '../helpers.ts'
import { reloadApp } from '../routes/writes-tree.ts'

// Random sequences of writes to one series through the API (override an occurrence, in English or
// Malay; exclude one; edit the series; change its COUNT), checked after each sequence against a model
// of the series: which occurrences exist (ids from their original starts), and what each shows. A fresh
// store over the written tree answers the same. FC_SEED replays a run; the seed is printed on failure.
const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)
const RUNS = Number(process.env.FC_RUNS ?? 12)

/** Weekly from 2027-03-01 10:00 in London: the clocks go forward on 2027-03-28, the wall clock stays. */
const SERIES = {
  title: 'Walk',
  start_date: '2027-03-01 10:00:00',
  end_date: '2027-03-01 11:00:00',
  timezone: 'Europe/London',
  cost: '5',
  venue: 10,
}
const MOST = 10
const startOf = (i: number) => wall(Date.UTC(2027, 2, 1 + 7 * i, 10))
const wall = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19)

type Fields = { title?: string; cost?: string; venue?: number; start_date?: string; end_date?: string }
type Op =
  | { op: 'override'; i: number; fields: Fields }
  | { op: 'translate'; i: number; title: string }
  | { op: 'exclude'; i: number }
  | { op: 'series'; fields: { title?: string; cost?: string } }
  | { op: 'count'; count: number }

interface Model {
  count: number
  excluded: Set<number>
  series: { title: string; cost: string }
  overrides: Map<number, Fields>
  malay: Map<number, string>
}

const index = fc.integer({ min: 0, max: MOST - 1 })
const title = fc.constantFrom('Hike', 'Stroll', 'Ramble')
const overrideFields = fc
  .record(
    {
      title,
      cost: fc.constantFrom('0', '3', '12'),
      venue: fc.constantFrom(10, 11),
      shift: fc.integer({ min: -2, max: 30 }),
    },
    { requiredKeys: [] },
  )
  .filter((fields) => Object.keys(fields).length > 0)
const ops: fc.Arbitrary<Op> = fc.oneof(
  index.chain((i) =>
    overrideFields.map(({ shift, ...fields }): Op => {
      if (shift === undefined) return { op: 'override', i, fields }
      const from = Date.parse(`${startOf(i).replace(' ', 'T')}Z`) + shift * 3_600_000
      return { op: 'override', i, fields: { ...fields, start_date: wall(from), end_date: wall(from + 5_400_000) } }
    }),
  ),
  fc.record({ op: fc.constant('translate' as const), i: index, title: fc.constantFrom('Jalan', 'Mendaki') }),
  fc.record({ op: fc.constant('exclude' as const), i: index }),
  fc.record({
    op: fc.constant('series' as const),
    fields: fc.record({ title, cost: fc.constantFrom('5', '8') }, { requiredKeys: [] }),
  }),
  fc.record({ op: fc.constant('count' as const), count: fc.integer({ min: 1, max: MOST }) }),
)

/** Runs one operation through the API and on the model; the status it answered must be the model's. */
async function apply(app: Awaited<ReturnType<typeof writableApp>>, id: number, model: Model, op: Op) {
  const at = (i: number) => `events/${occurrenceId(id, startOf(i))}`
  const live = (i: number) => i < model.count && !model.excluded.has(i)
  let response: Awaited<ReturnType<typeof call>>
  if (op.op === 'override') {
    response = await call(app, at(op.i), json('PATCH', op.fields, as('editor')))
    if (live(op.i)) model.overrides.set(op.i, { ...model.overrides.get(op.i), ...op.fields })
  } else if (op.op === 'translate') {
    response = await call(app, `${at(op.i)}?ml_language=ms`, json('PATCH', { title: op.title }, as('editor')))
    if (live(op.i)) model.malay.set(op.i, op.title)
  } else if (op.op === 'exclude') {
    response = await call(app, at(op.i), json('DELETE', {}, as('editor')))
    const excluded = model.excluded.has(op.i)
    expect(response.status, response.text).toBe(live(op.i) ? 200 : excluded ? 410 : 404)
    if (live(op.i)) {
      model.excluded.add(op.i)
      model.overrides.delete(op.i)
      model.malay.delete(op.i)
    }
    return
  } else if (op.op === 'series') {
    response = await call(app, `events/${id}`, json('PATCH', op.fields, as('editor')))
    Object.assign(model.series, op.fields)
    expect(response.status, response.text).toBe(200)
    return
  } else {
    const exdate = [...model.excluded].map((i) => startOf(i).slice(0, 10))
    const recurrence = { rrule: `FREQ=WEEKLY;COUNT=${op.count}`, exdate }
    response = await call(app, `events/${id}`, json('PATCH', { recurrence }, as('editor')))
    model.count = op.count
    expect(response.status, response.text).toBe(200)
    return
  }
  expect(response.status, response.text).toBe(live(op.i) ? 200 : 404)
}

/** What the model says each occurrence shows, in a language, by id. */
function expected(id: number, model: Model, lang: 'en' | 'ms') {
  const out: Record<number, unknown> = {}
  for (let i = 0; i < model.count; i++) {
    if (model.excluded.has(i)) continue
    const own = model.overrides.get(i) ?? {}
    const cost = own.cost ?? model.series.cost
    out[occurrenceId(id, startOf(i))] = {
      title: (lang === 'ms' ? model.malay.get(i) : undefined) ?? own.title ?? model.series.title,
      start_date: own.start_date ?? startOf(i),
      end_date: own.end_date ?? wall(Date.parse(`${startOf(i).replace(' ', 'T')}Z`) + 3_600_000),
      cost: cost === '0' ? 'Free' : `$${cost}`,
      venue: own.venue ?? SERIES.venue,
    }
  }
  return out
}

/** What the API lists for the series' occurrences in a language, by id (every page). */
async function served(app: Parameters<typeof call>[0], id: number, lang: 'en' | 'ms') {
  const out: Record<number, unknown> = {}
  for (let page = 1; ; page++) {
    const query = `events?post_parent=${id}&per_page=4&page=${page}&start_date=2027-01-01&end_date=2027-12-31`
    const response = await call(app, `${query}&ml_language=${lang}`)
    if (response.status === 404) return out
    expect(response.status, response.text).toBe(200)
    for (const event of response.body.events)
      out[event.id] = {
        title: event.title,
        start_date: event.start_date,
        end_date: event.end_date,
        cost: event.cost,
        venue: event.venue.id,
      }
    if (!response.body.next_rest_url) return out
  }
}

describe('writes to a series through the API follow a model of the series', () => {
  it('after random overrides, exclusions and edits, every occurrence shows what the model says, after a restart too', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(ops, { minLength: 1, maxLength: 8 }), async (sequence) => {
        const app = await writableApp('series')
        try {
          const created = await call(
            app,
            'events',
            json('POST', { ...SERIES, recurrence: { rrule: `FREQ=WEEKLY;COUNT=${MOST}` } }, as('editor')),
          )
          expect(created.status, created.text).toBe(201)
          const id = created.body.id as number
          const model: Model = {
            count: MOST,
            excluded: new Set(),
            series: { title: SERIES.title, cost: SERIES.cost },
            overrides: new Map(),
            malay: new Map(),
          }
          for (const op of sequence) await apply(app, id, model, op)
          const fresh = await reloadApp(app.content)
          for (const lang of ['en', 'ms'] as const) {
            expect(await served(app, id, lang)).toEqual(expected(id, model, lang))
            expect(await served(fresh, id, lang)).toEqual(expected(id, model, lang))
          }
          expect(fresh.problems.filter((problem) => problem.severity === 'error')).toEqual([])
        } finally {
          await rm(app.dir, { recursive: true, force: true })
        }
      }),
      { numRuns: RUNS, seed: SEED },
    )
  }, 60_000)
})
