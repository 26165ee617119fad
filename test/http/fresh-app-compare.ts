import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import fc from 'fast-check'
import { expect } from 'vitest'
import { type App, createApp } from '../../src/app.ts'
import type { UserDirectory } from '../../src/auth/users.ts'
import type { Store } from '../../src/content/store.ts'
import { as, call, type Login, type TestAppOptions, testSite } from '../helpers.ts'

// How the fresh-app properties (fresh-app-property.test.ts, fresh-app-git-property.test.ts) hold a running app with
// warm caches to a brand-new app over the same store and clock: a request is asked of the running app (once or
// twice), then of an app made anew for it alone, and the two answers must be the same bytes (status, every header,
// body). Requests come from a pool a run keeps; after each step some are asked again, some right after a sibling
// (another Origin, method, caller or language), some with the ETag given before as If-None-Match, some over loopback
// sockets (the running app's front door).

export type Params = Record<string, string>
/** Who asks: nobody, a signed-in user, or nobody with a password in the query. */
export type Caller = 'anonymous' | Login
export interface Asked {
  caller: Caller
  /** Relative to the namespace unless it starts with `/`; `{NEW}` is the event the run created last. */
  path: string
  method: 'GET' | 'HEAD'
  origin: string | undefined
  /** An ETag the running app gave this request before, sent back as If-None-Match. */
  etag?: string
}

/** Some of the keys of a model, each with a value. */
export const some = (model: Record<string, fc.Arbitrary<string>>, maxLength = 3): fc.Arbitrary<Params> =>
  fc
    .subarray(Object.keys(model), { maxLength })
    .chain((keys) => fc.record(Object.fromEntries(keys.map((key) => [key, model[key]!]))))
export const withQuery = (path: string, params: Params) => {
  const query = new URLSearchParams(params).toString()
  return `${path}${query ? `${path.includes('?') ? '&' : '?'}${query}` : ''}`
}

/**
 * Which of the pool to ask after a step: 3–6 of them, some twice on the running app, some right after a sibling
 * (the same request but for one thing a cache key must tell apart: the Origin, the method, the caller, the language
 * segment), so that a key that misses that thing serves the sibling's answer.
 */
export const SIBLINGS = ['none', 'none', 'origin', 'method', 'caller', 'language'] as const
/**
 * Whether to ask with If-None-Match the ETag the running app last gave the same request (maybe before a change):
 * a 304 must come only when the answer is still that one.
 */
const conditional = fc.boolean()
/** Asked over loopback sockets rather than in-process: a quarter of the time. */
const socket = fc.constantFrom(false, false, false, true)
/** A batch of `minLength` to `maxLength` asks of the pool. */
export const batchOf = (minLength: number, maxLength: number) =>
  fc.array(
    fc.record({
      pick: fc.nat(),
      twice: fc.boolean(),
      keeping: fc.boolean(),
      sibling: fc.constantFrom(...SIBLINGS),
      conditional,
      socket,
    }),
    { minLength, maxLength },
  )
export const batch = batchOf(3, 6)
export type Batch = typeof batch extends fc.Arbitrary<infer T> ? T : never

/** The store as a fresh app sees it: the same store, but a fresh app, thrown away after one request, hears no change. */
export function quietStore(store: Store): Store {
  return new Proxy(store, {
    get: (target, key) => (key === 'onChange' ? () => {} : Reflect.get(target, key, target)),
  })
}

/** A brand-new app over a (quiet) store, users and clock: nothing kept, nothing memoized, no index built yet. */
export function freshAppOver(quiet: Store, users: UserDirectory, options: TestAppOptions, keeping: boolean): App {
  return createApp({
    store: quiet,
    site: testSite(options),
    users,
    perPage: 9,
    maxPerPage: 50,
    fallback: true,
    now: () => options.now!,
    log: () => {},
    ...(keeping ? {} : { answerCache: false as const }),
  })
}

export interface ComparisonSetup {
  /** The running app, as it is now (a property may make a new one for each run). */
  running: () => App
  /** A brand-new app, keeping the answers it gives or not. */
  fresh: (keeping: boolean) => App
  /** The clock both answer at. */
  now: () => number
  seed: number
  /** What the run did so far, for a failure's message; compared requests are added to it. */
  log: () => string[]
  /** A request's path as asked now (`{NEW}`). */
  resolve?: (path: string) => string
}

/** Asks the running app and fresh apps the same requests, and expects the same bytes. */
export async function comparison(setup: ComparisonSetup) {
  const { running, fresh, now, seed, log } = setup
  const resolve = setup.resolve ?? ((path: string) => path)
  const counts = { compared: 0, twice: 0, statuses: new Map<string, number>() }
  /** Loopback servers: one for the running app (its front door first), one for whichever fresh app is asked. */
  const servers: Server[] = []
  let freshNode: App['node'] | undefined
  const listen = async (handler: App['node']) => {
    const server = createServer(handler)
    servers.push(server)
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  }
  const runningBase = await listen((request, response) => running().node(request, response))
  const freshBase = await listen((request, response) => freshNode!(request, response))

  const initOf = (asked: Asked): RequestInit => ({
    method: asked.method,
    headers: {
      ...(asked.caller === 'anonymous' ? {} : as(asked.caller)),
      ...(asked.origin ? { Origin: asked.origin } : {}),
      ...(asked.etag ? { 'If-None-Match': asked.etag } : {}),
    },
  })
  const shown = (asked: Asked) =>
    `${asked.method} ${resolve(asked.path)} as ${asked.caller}${asked.origin ? ` from ${asked.origin}` : ''}${asked.etag ? ` if none match ${asked.etag}` : ''}`

  /** The last ETag the running app gave each request (by how it is shown), for conditional asks. */
  const etags = new Map<string, string>()

  /** How the apps are asked: in-process (`call`), or over loopback sockets to their Node handlers (the front door). */
  let overSockets = false
  async function ask(target: App, asked: Asked) {
    if (!overSockets) return call(target, resolve(asked.path), initOf(asked))
    const path = resolve(asked.path)
    const url = path.startsWith('/') ? path : `/wp-json/calendar/events/v1/${path}`
    const isRunning = target === running()
    if (!isRunning) freshNode = target.node
    const base = isRunning ? runningBase : freshBase
    const answer = await fetch(`${base}${url}`, { ...initOf(asked), signal: AbortSignal.timeout(10_000) })
    const headers = new Headers(answer.headers)
    // Node's own, the same whichever way the answer was made.
    for (const name of ['date', 'connection', 'keep-alive']) headers.delete(name)
    return { status: answer.status, headers, text: await answer.text() }
  }

  /** Status, every header and the body of an answer, as text to compare. */
  async function whole(target: App, asked: Asked): Promise<string> {
    const answer = await ask(target, asked)
    const etag = answer.headers.get('etag')
    if (target === running() && etag && !asked.etag) etags.set(shown(asked), etag)
    return `${answer.status}\n${[...answer.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n${answer.text}`
  }

  /** Asks the running app (once or twice), then a brand-new app: the answers must be the same bytes. */
  async function compare(asked: Asked, twice: boolean, keeping: boolean): Promise<void> {
    const app = running()
    const first = await whole(app, asked)
    const again = twice ? await whole(app, asked) : first
    const made = await whole(fresh(keeping), asked)
    counts.statuses.set(made.slice(0, 3), (counts.statuses.get(made.slice(0, 3)) ?? 0) + 1)
    const where = `${shown(asked)}${overSockets ? ' over sockets' : ''} at ${new Date(now()).toISOString()} (seed ${seed}); the run so far:\n  ${log().join('\n  ')}\n`
    expect(first, where).toBe(made)
    if (twice) expect(again, `asked again: ${where}`).toBe(made)
    log().push(
      `  ${shown(asked)}${overSockets ? ' over sockets' : ''}${twice ? ', twice' : ''} -> ${made.slice(0, 3)} ${/^etag: (.*)$/m.exec(made)?.[1] ?? ''}`,
    )
    counts.compared++
    if (twice) counts.twice++
  }

  /** Asks what a batch picks of the pool, each compared (with its sibling first, then conditionally, if picked). */
  async function check(pool: Asked[], list: Batch): Promise<void> {
    for (const { pick, twice, keeping, sibling, conditional, socket } of list) {
      const asked = pool[pick % pool.length]!
      overSockets = socket
      if (sibling !== 'none') await compare(siblingOf(asked, sibling), false, keeping)
      await compare(asked, twice, keeping)
      const etag = etags.get(shown(asked))
      if (conditional && etag) await compare({ ...asked, etag }, false, keeping)
      overSockets = false
    }
  }

  /** Asks the running app what a batch picks of the pool, answers unread: its caches are warm when a change meets them. */
  async function warm(pool: Asked[], list: Batch): Promise<void> {
    for (const { pick } of list)
      await call(running(), resolve(pool[pick % pool.length]!.path), initOf(pool[pick % pool.length]!))
  }

  async function close(): Promise<void> {
    for (const server of servers) {
      server.closeAllConnections()
      await new Promise((done) => server.close(done))
    }
  }

  return { counts, initOf, shown, whole, compare, check, warm, close }
}

/** The request but for one thing. */
function siblingOf(asked: Asked, how: (typeof SIBLINGS)[number]): Asked {
  const prefixed = /^\/(ms|zh-hans)\/wp-json\/calendar\/events\/v1\//
  switch (how) {
    case 'origin':
      return { ...asked, origin: asked.origin ? undefined : 'https://b.example' }
    case 'method':
      return { ...asked, method: asked.method === 'GET' ? 'HEAD' : 'GET' }
    case 'caller':
      return {
        ...asked,
        caller: asked.caller === 'anonymous' && !asked.path.includes('password=') ? 'contributor' : 'anonymous',
      }
    default:
      if (prefixed.test(asked.path)) return { ...asked, path: asked.path.replace(prefixed, '') }
      return asked.path.startsWith('/') ? asked : { ...asked, path: `/ms/wp-json/calendar/events/v1/${asked.path}` }
  }
}

/** Counts by name, as a line of a property's summary. */
export function tally(map: Map<string, number>): string {
  return [...map]
    .sort()
    .map(([key, n]) => `${key}: ${n}`)
    .join(', ')
}
