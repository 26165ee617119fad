import { rm } from 'node:fs/promises'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { App } from '../../src/app.ts'
import type { Store } from '../../src/content/store.ts'
import { buildUrls } from '../../src/prerender/public-urls.ts'
import { buildFeedBytes, createBuildApp } from '../../src/prerender/renderer.ts'
import { as, call, json, SAMPLE_NOW, testSite, writableApp } from '../helpers.ts'
import { quietStore } from '../http/fresh-app-compare.ts'

// The app of a static build keeps the segments of the feeds it last wrote (src/serialize/feed/feed-segments.ts) and
// takes a plain event's VEVENT, and the feed's time zones, from them while they still hold. After random edits of
// the `feeds` tree (titles, dates, zones, all-day, new events, events trashed, a series, a venue, a category: the
// ones that keep the feed's records in place, move them, add and remove them, and move the epoch), every feed it
// writes must be, byte for byte and ETag for ETag, what a build app made anew answers. FC_SEED=<n> replays a failure;
// fast-check prints its seed.

const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)
const RUNS = Number(process.env.FC_RUNS ?? 20)

/** The published plain events of the tree, in several zones, two all-day. */
const PLAIN = [20, 21, 22, 23, 24, 25, 26, 27, 28, 43, 44] as const
const ZONES = ['Europe/London', 'Asia/Kolkata', 'America/New_York', 'Asia/Singapore', 'UTC'] as const
const MS = '/ms/wp-json/calendar/events/v1/'
/** The feeds asked, each after some of the steps: whole, scoped, bounded, filtered, single, in English and Malay. */
const FEEDS = [
  'events.ics',
  `${MS}events.ics`,
  'venues/10/events.ics',
  `${MS}venues/10/events.ics`,
  'categories/2/events.ics',
  `${MS}categories/2/events.ics`,
  'tags/4/events.ics',
  'organizers/12/events.ics',
  'events/20.ics',
  'events/30.ics',
  'events.ics?start_date=2026-12-01&end_date=2027-01-31',
  'events.ics?categories=2',
] as const

const target = fc.oneof(fc.constantFrom(...PLAIN), fc.constant('new' as const))
const step = fc.oneof(
  fc.record({ kind: fc.constant('title' as const), id: target, n: fc.nat(99) }),
  fc.record({ kind: fc.constant('malayTitle' as const), id: fc.constantFrom(20, 21, 25, 30), n: fc.nat(99) }),
  fc.record({ kind: fc.constant('move' as const), id: target, day: fc.integer({ min: -40, max: 400 }) }),
  fc.record({ kind: fc.constant('swap' as const), a: fc.constantFrom(...PLAIN), b: fc.constantFrom(...PLAIN) }),
  fc.record({ kind: fc.constant('zone' as const), id: target, zone: fc.constantFrom(...ZONES) }),
  fc.record({ kind: fc.constant('allDay' as const), id: target, on: fc.boolean() }),
  // A long description makes the walk yield to the event loop.
  fc.record({ kind: fc.constant('create' as const), day: fc.integer({ min: 0, max: 60 }), long: fc.boolean() }),
  fc.record({ kind: fc.constant('trash' as const), id: target }),
  fc.record({ kind: fc.constant('toSeries' as const), id: target }),
  fc.record({ kind: fc.constant('fromSeries' as const) }),
  fc.record({ kind: fc.constant('atVenue' as const), id: target, on: fc.boolean() }),
  fc.record({ kind: fc.constant('tag' as const), id: target, on: fc.boolean() }),
  fc.record({ kind: fc.constant('series' as const), n: fc.nat(99) }),
  fc.record({ kind: fc.constant('venue' as const), n: fc.nat(3) }),
  fc.record({ kind: fc.constant('category' as const), id: target }),
)
type Step = typeof step extends fc.Arbitrary<infer T> ? T : never

const admin = as('admin')
const day = (offset: number) => new Date(Date.UTC(2026, 11, 1) + offset * 86_400_000).toISOString().slice(0, 10)

/** Runs a step through the API; the event `new` is the one the run created last (none yet: the step is skipped). */
async function apply(app: App, step: Step, created: number[]): Promise<void> {
  const id = 'id' in step ? (step.id === 'new' ? created.at(-1) : step.id) : undefined
  if ('id' in step && id === undefined) return
  const patch = async (path: string, body: unknown) =>
    expect((await call(app, path, json('PATCH', body, admin))).status, JSON.stringify(step)).toBe(200)
  if (step.kind === 'title') await patch(`events/${id}`, { title: `Edited ${step.n}` })
  else if (step.kind === 'malayTitle') await patch(`events/${step.id}?ml_language=ms`, { title: `Disunting ${step.n}` })
  else if (step.kind === 'move')
    await patch(`events/${id}`, { start_date: `${day(step.day)} 18:00:00`, end_date: `${day(step.day)} 20:30:00` })
  else if (step.kind === 'swap') {
    const [a, b] = [(await call(app, `events/${step.a}`)).body, (await call(app, `events/${step.b}`)).body]
    if (!a?.start_date || !b?.start_date) return
    await patch(`events/${step.a}`, { start_date: b.start_date, end_date: b.end_date })
    await patch(`events/${step.b}`, { start_date: a.start_date, end_date: a.end_date })
  } else if (step.kind === 'zone') await patch(`events/${id}`, { timezone: step.zone })
  else if (step.kind === 'allDay') await patch(`events/${id}`, { all_day: step.on })
  else if (step.kind === 'category') await patch(`events/${id}`, { categories: [2] })
  else if (step.kind === 'tag') await patch(`events/${id}`, { tags: step.on ? [4] : [] })
  else if (step.kind === 'atVenue') await patch(`events/${id}`, { venue: step.on ? 10 : 0 })
  else if (step.kind === 'toSeries') await patch(`events/${id}`, { recurrence: { rrule: 'FREQ=WEEKLY;COUNT=3' } })
  else if (step.kind === 'fromSeries') await patch('events/30', { recurrence: null })
  else if (step.kind === 'trash') await call(app, `events/${id}`, { method: 'DELETE', headers: admin })
  else if (step.kind === 'series') await patch('events/30', { title: `Yoga ${step.n}` })
  else if (step.kind === 'venue') await patch('venues/10', { venue: `Hall ${step.n}` })
  else {
    const long = step.long ? { description: 'Words and more words. '.repeat(1500) } : {}
    const body = { title: 'Made', start_date: `${day(step.day)} 09:00:00`, end_date: `${day(step.day)} 11:00:00` }
    const made = await call(app, 'events', json('POST', { ...body, ...long, venue: 10, status: 'publish' }, admin))
    expect(made.status).toBe(201)
    created.push(made.body.id)
  }
}

/** The app a static build follows edits with (it holds its feeds' VEVENTs and walks), over `store`. */
function buildApp(store: Store): App {
  const options = { site: testSite(), publicUrl: 'https://cdn.example.org', perPage: 9, maxPerPage: 50 }
  return createBuildApp(
    store,
    { ...options, feedCacheBytes: buildFeedBytes(4) },
    buildUrls(options).layout,
    () => SAMPLE_NOW,
  )
}

async function feed(app: App, path: string): Promise<string> {
  const answer = await call(app, path)
  return `${answer.status} ${answer.headers.get('etag')}\n${answer.text}`
}

describe('feeds put together from the segments of the last walk', () => {
  it('are what a fresh build app answers, after any edits', async () => {
    const asks = fc.array(fc.boolean(), { minLength: FEEDS.length, maxLength: FEEDS.length })
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(step, asks), { minLength: 1, maxLength: 10 }), async (steps) => {
        const app = await writableApp('feeds')
        try {
          const held = buildApp(app.store)
          const created: number[] = []
          for (const path of FEEDS) await feed(held, path)
          // Each feed is asked after some steps only, so a walk may follow several edits.
          for (const [one, asked] of steps) {
            await apply(app, one, created)
            for (const path of FEEDS.filter((_, i) => asked[i]))
              expect(await feed(held, path), `${path} after ${JSON.stringify(one)}`).toBe(
                await feed(buildApp(quietStore(app.store)), path),
              )
          }
          for (const path of FEEDS)
            expect(await feed(held, path), `${path} at the end`).toBe(await feed(buildApp(quietStore(app.store)), path))
        } finally {
          await rm(app.dir, { recursive: true, force: true })
        }
      }),
      { numRuns: RUNS, seed: SEED },
    )
  }, 240_000)

  it('is not taken from the last walk past a change that lands while the walk yields', async () => {
    const app = await writableApp('feeds')
    const real = globalThis.setImmediate
    try {
      // A long description costs the walk a slice of its own: it yields after it.
      const body = { title: 'Long', start_date: '2026-10-24 09:00:00', end_date: '2026-10-24 10:00:00' }
      const long = await call(
        app,
        'events',
        json('POST', { ...body, description: 'x '.repeat(20_000), status: 'publish' }, admin),
      )
      expect(long.status).toBe(201)
      const held = buildApp(app.store)
      await feed(held, 'events.ics')
      expect((await call(app, `events/${long.body.id}`, json('PATCH', { title: 'Long 2' }, admin))).status).toBe(200)
      // The venue is renamed at the walk's first yield, before it goes on.
      let renamed = false
      globalThis.setImmediate = ((go: () => void) => {
        globalThis.setImmediate = real
        renamed = true
        void call(app, 'venues/10', json('PATCH', { venue: 'Renamed Hall' }, admin)).then(() => real(go))
      }) as typeof setImmediate
      const during = await feed(held, 'events.ics')
      expect(renamed).toBe(true)
      expect(during).toContain('Renamed Hall')
      expect(during).toBe(await feed(buildApp(quietStore(app.store)), 'events.ics'))
    } finally {
      globalThis.setImmediate = real
      await rm(app.dir, { recursive: true, force: true })
    }
  })
})
