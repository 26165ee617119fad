import { rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type App, createApp } from '../../src/app.ts'
import { openUsers } from '../../src/auth/users.ts'
import { as, call, json, type Login, type TestAppOptions, testSite, writableApp } from '../helpers.ts'
import { type LeakTree, treeSpec, writeLeakTree } from '../routes/leak-tree.ts'
import { clockMove, movedClock } from './clock-moves.ts'

// Kept answers never leak and never go stale (src/http/answer-reuse.ts): over random interleavings of
// anonymous requests, requests with a password, signed-in requests, writes and moves of the clock, every
// anonymous answer of the app that keeps answers is byte for byte what an app over the same store and clock
// that keeps none answers at that moment: asked in-process, and asked over loopback sockets, where the app's
// front door (src/http/front-door.ts) answers before h3 does. FC_SEED=<n> replays a failure; the seed also
// picks the tree.
const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)
const RUNS = Number(process.env.FC_RUNS ?? 80)
const START = Date.parse('2026-12-10T10:30:00Z')

// A site ahead of UTC: its local midnight (16:00 UTC) and UTC's are different moments.
const options: TestAppOptions = { now: START, timezone: 'Asia/Kuala_Lumpur' }
let tree: LeakTree
let app: Awaited<ReturnType<typeof writableApp>>
let plain: App
const servers: Server[] = []
/** Where each app listens on loopback, by app. */
const bases = new Map<App, string>()
beforeAll(async () => {
  tree = await writeLeakTree(fc.sample(treeSpec, { seed: SEED, numRuns: 1 })[0]!)
  app = await writableApp(tree.dir, options)
  plain = createApp({
    store: app.store,
    site: testSite(options),
    users: openUsers(join(app.dir, 'users.yaml')),
    perPage: 9,
    maxPerPage: 50,
    fallback: true,
    now: () => options.now!,
    log: () => {},
    answerCache: false,
  })
  for (const target of [app, plain]) {
    const server = createServer(target.node)
    servers.push(server)
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    bases.set(target, `http://127.0.0.1:${(server.address() as AddressInfo).port}`)
  }
})
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections()
    await new Promise((done) => server.close(done))
  }
  await rm(tree.dir, { recursive: true, force: true })
  await rm(app.dir, { recursive: true, force: true })
})

type Params = Record<string, string>

/** Requests whose answers read the store and the clock in every way a kept answer could get wrong. */
function requests(t: LeakTree): fc.Arbitrary<string> {
  const some = (model: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<Params> =>
    fc
      .subarray(Object.keys(model), { maxLength: 3 })
      .chain((keys) => fc.record(Object.fromEntries(keys.map((key) => [key, model[key]!]))))
  const common = {
    per_page: fc.constantFrom('2', '5'),
    page: fc.constantFrom('1', '2'),
    ml_language: fc.constantFrom('ms', 'zh-hans'),
    _fields: fc.constantFrom('id,title', 'total'),
    _envelope: fc.constant('1'),
  }
  // The dates of an event list, any of them, each absolute or relative: their own record, so they come often.
  const dates = fc.record(
    {
      start_date: fc.constantFrom('2026-12-05', 'now', 'today', '+1 day', 'yesterday', '2026-12-10 18:00:00'),
      end_date: fc.constantFrom('2026-12-20', 'tomorrow', '+2 weeks', '2026-12-31 23:00:00'),
      starts_after: fc.constantFrom('now', '2026-12-12'),
      ends_before: fc.constantFrom('+3 days', '2026-12-15'),
      strict_dates: fc.constant('true'),
    },
    { requiredKeys: [] },
  )
  const others = some({ ...common, search: fc.constantFrom('event', 'acara'), categories: fc.constantFrom('1', '2') })
  const events = fc
    .tuple(
      fc.oneof(
        { weight: 2, arbitrary: fc.constant({}) },
        fc.constant({ strict_dates: 'true' }),
        fc.constant({ strict_dates: 'true', start_date: '2026-12-05' }),
        fc.constant({ start_date: '2026-12-05', end_date: '2026-12-20' }),
        { weight: 3, arbitrary: dates },
      ),
      others,
    )
    .map(([when, params]) => ['events', { ...when, ...params } as Params] as const)
  const linked = fc
    .tuple(
      fc.constantFrom('venues', 'organizers'),
      some({ ...common, only_with_upcoming: fc.constant('1'), has_events: fc.constantFrom('true', 'false') }),
    )
    .map(([kind, params]) => [kind, params] as const)
  const single = fc
    .constantFrom(...t.events.map((id) => `events/${id}`), ...t.venues.map((id) => `venues/${id}`))
    .map((path) => [path, {}] as const)
  const index = fc.constantFrom('/wp-json/', '/wp-json/calendar/events/v1/', 'categories?hide_empty=true')
  const routed = fc.oneof(events, events, events, linked, single).map(([path, params]) => {
    const query = new URLSearchParams(params).toString()
    return `${path}${query ? `?${query}` : ''}`
  })
  return fc.oneof({ weight: 6, arbitrary: routed }, { weight: 1, arbitrary: index })
}

function moveClock(move: number | string): void {
  options.now = movedClock(options.now!, move)
}

/** How a request reaches an app: in-process (`call`), or over a loopback socket to its Node handler. */
type Transport = (
  target: App,
  path: string,
  init: RequestInit,
) => Promise<{ status: number; headers: Headers; text: string }>

const inProcess: Transport = call
const overSockets: Transport = async (target, path, init) => {
  const url = path.startsWith('/') ? path : `/wp-json/calendar/events/v1/${path}`
  const answer = await fetch(`${bases.get(target)}${url}`, { ...init, signal: AbortSignal.timeout(10_000) })
  const headers = new Headers(answer.headers)
  // Node's own, the same whichever way the answer was made.
  for (const name of ['date', 'connection', 'keep-alive']) headers.delete(name)
  return { status: answer.status, headers, text: await answer.text() }
}
let transport: Transport = inProcess

/** Status, headers and body of an answer, as text to compare. */
async function whole(target: App, path: string, init: RequestInit): Promise<string> {
  const answer = await transport(target, path, init)
  return `${answer.status}\n${[...answer.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n${answer.text}`
}

/** A request an anonymous caller asks: its path, and the language segment and Origin it is asked with. */
interface Asked {
  path: string
  origin: string | undefined
  prefix: string
}

/** Runs of steps. A run asks a few requests again and again, so that kept answers meet writes and time. */
function runs(t: LeakTree) {
  const asked = fc.record({
    path: requests(t),
    origin: fc.constantFrom(undefined, 'https://a.example'),
    prefix: fc.constantFrom('', '', '/ms'),
  })
  return fc
    .array(asked, { minLength: 1, maxLength: 2 })
    .chain((pool) => steps(t, fc.constantFrom(...pool)).map((list) => ({ pool, list })))
}

function steps(t: LeakTree, asked: fc.Arbitrary<Asked>) {
  const anonymous = fc.record({
    kind: fc.constant('anonymous' as const),
    asked,
    method: fc.constantFrom('GET', 'GET', 'HEAD'),
  })
  const password = fc.record({
    kind: fc.constant('password' as const),
    path: fc.constantFrom(...t.events.map((id) => `events/${id}?password=pw-${id}`), 'events?password=pw-0'),
  })
  const signedIn = fc.record({
    kind: fc.constant('signed-in' as const),
    path: fc.oneof(
      asked.map((a) => a.path),
      requests(t),
    ),
    login: fc.constantFrom<Login>('editor', 'author', 'contributor', 'subscriber'),
  })
  const write = fc.record({
    kind: fc.constant('write' as const),
    id: fc.constantFrom(...t.events, ...t.venues),
    change: fc.constantFrom<Record<string, string>>(
      { title: 'Changed by a write' },
      { status: 'draft' },
      { status: 'publish' },
      { start_date: '2026-12-11 08:00:00', end_date: '2026-12-11 09:00:00' },
    ),
  })
  const clock = fc.record({ kind: fc.constant('clock' as const), move: clockMove })
  return fc.array(
    fc.oneof({ weight: 6, arbitrary: anonymous }, password, signedIn, write, { weight: 2, arbitrary: clock }),
    {
      minLength: 2,
      maxLength: 10,
    },
  )
}

/** Asks both apps the same anonymous request: the answers must be the same bytes. */
async function compareAnonymous({ path: asked, prefix, origin }: Asked, method: string): Promise<void> {
  const path = asked.startsWith('/') || !prefix ? asked : `${prefix}/wp-json/calendar/events/v1/${asked}`
  const headers: Record<string, string> = origin ? { Origin: origin } : {}
  const init = { method, headers }
  const where = `${method} ${path} at ${new Date(options.now!).toISOString()} (seed ${SEED})`
  expect(await whole(app, path, init), where).toBe(await whole(plain, path, init))
}

describe('kept answers', () => {
  it.each([
    ['in-process', inProcess, RUNS],
    ['over loopback sockets, through the front door', overSockets, Math.ceil(RUNS / 2)],
  ] as const)(
    'are byte for byte what an app keeping none answers, through writes, passwords, callers and time (%s)',
    async (_, via, numRuns) => {
      transport = via
      const hits = app.answers!.hits
      await fc.assert(
        fc.asyncProperty(runs(tree), async ({ pool, list }) => {
          options.now = START
          for (const asked of pool) await compareAnonymous(asked, 'GET')
          for (const step of list) {
            if (step.kind === 'clock') moveClock(step.move)
            else if (step.kind === 'password') await call(app, step.path)
            else if (step.kind === 'signed-in') {
              const init = { headers: as(step.login) }
              const where = `${step.login} ${step.path} (seed ${SEED})`
              expect(await whole(app, step.path, init), where).toBe(await whole(plain, step.path, init))
            } else if (step.kind === 'write') {
              const kind = tree.events.includes(step.id) ? 'events' : 'venues'
              const change = kind === 'events' ? step.change : { venue: 'Renamed venue' }
              await call(app, `${kind}/${step.id}`, json('POST', change, as('admin')))
            } else await compareAnonymous(step.asked, step.method)
            // Every change is followed by the pool asked again: a kept answer meets what changed.
            if (step.kind !== 'anonymous') for (const asked of pool) await compareAnonymous(asked, 'GET')
          }
        }),
        { numRuns, seed: SEED },
      )
      // The property would be empty if nothing were kept.
      expect(app.answers!.hits, `seed ${SEED}`).toBeGreaterThan(hits)
    },
  )
})
