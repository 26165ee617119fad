import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { EVENT_STATUSES, type EventStatus } from '../../src/content/model/event-status.ts'
import { occurrenceId } from '../../src/content/model/recurrence.ts'
import { allPages, file, seriesApp } from '../series/tree.ts'

// The list filter `event_status` (docs/compatibility.md §32), for random trees of events and a series whose
// occurrences have random statuses, random post statuses, passwords and hidden events: for an anonymous caller,
// every page of `GET /events?event_status=X` holds exactly the events of the model whose status is in X (never a
// draft, a private or a hidden one), and, with a date window or a search, exactly the events the same list without
// the filter holds whose status is in X, in its order. FC_SEED=<n> replays a failure; its seed is printed.
const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)
const RUNS = Number(process.env.FC_RUNS ?? 40)
const WIDE = 'start_date=2000-01-01&end_date=2031-12-31'
const WORDS = ['jazz', 'walk', 'picnic', 'film', 'talk'] as const
const SERIES_ID = 500

interface EventSpec {
  eventStatus: EventStatus | undefined
  postStatus: 'publish' | 'draft' | 'pending' | 'private'
  password: boolean
  hidden: boolean
  day: number
  hours: number
  word: (typeof WORDS)[number]
}

const statusArb = fc.option(fc.constantFrom(...EVENT_STATUSES), { nil: undefined })
const eventArb: fc.Arbitrary<EventSpec> = fc.record({
  eventStatus: statusArb,
  postStatus: fc.constantFrom('publish', 'publish', 'publish', 'draft', 'pending', 'private'),
  password: fc.boolean(),
  hidden: fc.constantFrom(false, false, false, true),
  day: fc.integer({ min: 0, max: 59 }),
  hours: fc.integer({ min: 1, max: 30 }),
  word: fc.constantFrom(...WORDS),
})
/** A daily series: its own status, and each occurrence's override (undefined: none). */
const seriesArb = fc.option(
  fc.record({ own: statusArb, overrides: fc.array(statusArb, { minLength: 1, maxLength: 6 }), day: fc.nat(30) }),
  { nil: undefined },
)
const queryArb = fc.record({
  wanted: fc.uniqueArray(fc.constantFrom(...EVENT_STATUSES), { minLength: 1, maxLength: 3 }),
  array: fc.boolean(),
  perPage: fc.integer({ min: 1, max: 7 }),
  window: fc.constantFrom('start_date=2027-01-10&end_date=2027-02-05', 'start_date=2027-02-01', 'end_date=2027-01-20'),
  search: fc.constantFrom(...WORDS),
})

const wall = (day: number, hour: number) =>
  new Date(Date.UTC(2027, 0, 1 + day, hour)).toISOString().slice(0, 19).replace('T', ' ')

/** The content files of a tree, and the model: each listed event's id and status (what an anonymous list may show). */
function treeOf(events: EventSpec[], series: SeriesSpec | undefined) {
  const files: Record<string, string> = {}
  const model = new Map<number, EventStatus>()
  events.forEach((spec, i) => {
    const id = 10 + i
    const data: Record<string, unknown> = {
      id,
      title: `${spec.word} ${id}`,
      slug: `event-${id}`,
      status: spec.postStatus,
      date: '2026-10-01 09:00:00',
      start_date: wall(spec.day, 10),
      end_date: wall(spec.day, 10 + spec.hours),
    }
    if (spec.eventStatus) data.event_status = spec.eventStatus
    if (spec.password) data.password = 'secret'
    if (spec.hidden) data.hide_from_listings = true
    files[`events/event-${id}.en.md`] = file(data, `About ${spec.word}.`)
    if (spec.postStatus === 'publish' && !spec.hidden) model.set(id, spec.eventStatus ?? 'scheduled')
  })
  if (series) {
    const overrides: Record<string, unknown> = {}
    series.overrides.forEach((status, i) => {
      if (status) overrides[wall(series.day + i, 18).slice(0, 10)] = { event_status: status }
      model.set(occurrenceId(SERIES_ID, wall(series.day + i, 18)), status ?? series.own ?? 'scheduled')
    })
    const data: Record<string, unknown> = {
      id: SERIES_ID,
      title: 'choir series',
      slug: 'choir',
      date: '2026-10-01 09:00:00',
      start_date: wall(series.day, 18),
      end_date: wall(series.day, 19),
      recurrence: { rrule: `FREQ=DAILY;COUNT=${series.overrides.length}` },
    }
    if (series.own) data.event_status = series.own
    if (Object.keys(overrides).length > 0) data.overrides = overrides
    files['events/choir.en.md'] = file(data, 'Sing.')
  }
  return { files, model }
}

interface SeriesSpec {
  own: EventStatus | undefined
  overrides: (EventStatus | undefined)[]
  day: number
}

type Query = { wanted: EventStatus[]; array: boolean; perPage: number; window: string; search: string }

const filterOf = (q: Query) =>
  q.array ? q.wanted.map((s) => `event_status[]=${s}`).join('&') : `event_status=${q.wanted.join(',')}`

describe('GET /events?event_status= over random trees', () => {
  it('lists exactly the events of the model with a status asked, on every page, and nothing a list would not', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(eventArb, { maxLength: 18, size: 'max' }),
        seriesArb,
        queryArb,
        async (events, series, q) => {
          const { files, model } = treeOf(events, series)
          const app = await seriesApp(files, { now: Date.parse('2026-12-01T00:00:00Z') })
          expect(app.problems.filter((p) => p.severity !== 'warning')).toEqual([])
          const wanted = new Set<string>(q.wanted)
          const listed = await allPages(app, `${WIDE}&${filterOf(q)}`, q.perPage)
          const expected = [...model].filter(([, status]) => wanted.has(status)).map(([id]) => id)
          expect(listed.map((e) => e.id).sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b))
          for (const event of listed) {
            expect(event.status).toBe('publish')
            expect(wanted.has(event.event_status)).toBe(true)
          }
          // With a date window, and with a search: the same list without the filter, less the other statuses.
          for (const narrower of [q.window, `${WIDE}&search=${q.search}`]) {
            const all = await allPages(app, narrower, 50)
            const filtered = await allPages(app, `${narrower}&${filterOf(q)}`, q.perPage)
            expect(filtered.map((e) => e.id)).toEqual(all.filter((e) => wanted.has(model.get(e.id)!)).map((e) => e.id))
          }
        },
      ),
      { numRuns: RUNS, seed: SEED, verbose: 1 },
    )
  }, 60_000)
})
