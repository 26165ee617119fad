// Shared parts of the hostile-input fuzz suite: callers of every role, the routes, what a clean
// answer looks like, a byte snapshot of the content tree, and how long the event loop was held.
import { createHash } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import fc from 'fast-check'
import { expect } from 'vitest'
import type { App } from '../../src/app.ts'
import { as, ROLE_PASSWORDS, type Login } from '../helpers.ts'

/** The seed of every property in this run: FC_SEED to replay one; printed so a failure can be. */
export const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)
console.info(`fuzz: fast-check seed ${SEED} (replay with FC_SEED=${SEED})`)

export const NAMESPACE = 'http://127.0.0.1:8089/wp-json/calendar/events/v1'
export const KINDS = ['events', 'venues', 'organizers', 'categories', 'tags'] as const
export const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const
const IDS = { events: [7, 8, 9, 13, 16], venues: [4], organizers: [5], categories: [2], tags: [3] } as const
const SLUGS = {
  events: ['summer-concert', 'draft-thing', '第五届晚会'],
  venues: ['town-hall'],
  organizers: ['acme-events'],
  categories: ['music'],
  tags: ['outdoor'],
} as const

/** Who asks: nobody, each role, or a known login with a wrong password. */
export type Who = Login | 'anonymous' | 'wrong-password'
export const WHO: Who[] = ['anonymous', ...(Object.keys(ROLE_PASSWORDS) as Login[]), 'wrong-password']
export function headersOf(who: Who): Record<string, string> {
  if (who === 'anonymous') return {}
  if (who === 'wrong-password') return as('admin', 'not-the-password')
  return as(who)
}

/** A path inside the namespace that names a real route (with a real or a made-up record). */
export const routePath: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', 'doc', ...KINDS),
  fc
    .constantFrom(...KINDS)
    .chain((kind) => fc.constantFrom<number>(...IDS[kind], 1, 999_999).map((id) => `${kind}/${id}`)),
  fc
    .constantFrom('events', 'venues', 'organizers')
    .chain((kind) =>
      fc.constantFrom(...SLUGS[kind as 'events'], 'nope').map((slug) => `${kind}/by-slug/${encodeURIComponent(slug)}`),
    ),
)

/** Strings a hostile client sends: unicode, NUL, markup, huge, numbers as text, relative dates. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 40, size: 'max' }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '<script>alert(1)</script>',
    'javascript:alert(1)',
    '../../users.yaml',
    '..%2f..%2fusers.yaml',
    '%00',
    '-1',
    '0',
    '1e309',
    '9'.repeat(400),
    '+100000 years',
    '-100000 years',
    'now',
    'tomorrow',
    '0000-01-01',
    '9999-12-31 23:59:59',
    '1970-01-01T00:00:00Z',
    'NaN',
    'Infinity',
    'true',
    'null',
    '[]',
    '{}',
    '__proto__',
    'constructor',
    'Asia/Kuala_Lumpur',
    'Mars/Olympus',
    '\uD800',
    '\uFFFF',
    '🎉'.repeat(50),
    '新年 Gala',
    '>'.repeat(2000),
    '_a'.repeat(5000),
    '<'.repeat(20_000),
    'a,b,c',
    '1,2,3',
    ' 7 ',
  ),
  fc.integer({ min: 1, max: 20 }).map((n) => 'x'.repeat(n * 5_000)),
)

/** Values of any JSON type, hostile strings included, nested a few levels. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    hostileString,
    fc.integer(),
    fc.double(),
    fc.constantFrom(true, false, null, 0, -1, 2 ** 53, -(2 ** 63), 1e308),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'id', 'venue', 'organizer')),
      tie('value'),
      { maxKeys: 4 },
    ),
  ),
})).value

/** Parameter names: every argument of every route, and names that are traps. */
export const ARG_NAMES = [
  'id',
  'slug',
  'title',
  'description',
  'excerpt',
  'status',
  'date',
  'date_utc',
  'author',
  'start_date',
  'end_date',
  'all_day',
  'timezone',
  'image',
  'cost',
  'website',
  'show_map',
  'show_map_link',
  'hide_from_listings',
  'sticky',
  'featured',
  'categories',
  'tags',
  'venue',
  'organizer',
  'password',
  'name',
  'parent',
  'address',
  'city',
  'country',
  'province',
  'state',
  'zip',
  'phone',
  'stateprovince',
  'email',
  'page',
  'per_page',
  'search',
  'include',
  'exclude',
  'event',
  'has_events',
  'only_with_upcoming',
  'strict_dates',
  'geoloc',
  'geoloc_lat',
  'geoloc_lng',
  'ticketed',
  'orderby',
  'order',
  'hide_empty',
  'post',
  'ml_language',
  'starts_before',
  'starts_after',
  'ends_before',
  'ends_after',
  'force',
  '_method',
  '_fields',
  '_pretty',
  '_envelope',
  '_embed',
  '_jsonp',
  '__proto__',
  'constructor',
  'prototype',
]

/** An answer is clean: never 5xx, and every error in the envelope `{code, message, data: {status}}`. */
export function expectClean(status: number, body: string, method: string, what: string): void {
  expect(status, `${what} answered ${status}: ${body.slice(0, 300)}`).toBeLessThan(500)
  if (status < 400 || method === 'HEAD') return
  let parsed: { code?: unknown; message?: unknown; data?: { status?: unknown } | null }
  try {
    parsed = JSON.parse(body)
  } catch {
    throw new Error(`${what} answered ${status} with a body that is not JSON: ${body.slice(0, 300)}`)
  }
  expect(typeof parsed.code, `${what}: error code`).toBe('string')
  expect(typeof parsed.message, `${what}: error message`).toBe('string')
  expect(parsed.data?.status, `${what}: data.status`).toBe(status)
}

/** Every file of a tree, by path, as a hash of its bytes. */
export async function snapshotTree(dir: string): Promise<Map<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name))
  const hashes = await Promise.all(
    files.map(
      async (file) =>
        [
          file.slice(dir.length + 1),
          createHash('sha256')
            .update(await readFile(file))
            .digest('hex'),
        ] as const,
    ),
  )
  return new Map(hashes.sort(([a], [b]) => a.localeCompare(b)))
}

/** Sends one request and reads its answer whole. */
export async function send(app: App, url: string, init: RequestInit): Promise<{ status: number; body: string }> {
  const response = await app.fetch(new Request(url, init))
  return { status: response.status, body: await response.text() }
}

/**
 * The longest the event loop was held while `work` ran, in ms. A histogram of timer delays (as
 * perf_hooks samples them) rather than a request's own duration: a request may wait on the disk
 * without holding anyone up.
 */
export async function longestLoopDelay(work: () => Promise<unknown>): Promise<number> {
  const histogram = monitorEventLoopDelay({ resolution: 5 })
  histogram.enable()
  try {
    // The histogram records the delay between two of its ticks: a block before its first tick
    // would go unseen, so the work starts only once it has ticked.
    await new Promise((resolve) => setTimeout(resolve, 20))
    await work()
    // One more turn, so a block at the very end is sampled too.
    await new Promise((resolve) => setTimeout(resolve, 10))
  } finally {
    histogram.disable()
  }
  return histogram.max / 1e6
}

/** fast-check's settings for this suite: the shared seed, a bounded number of runs, no time limit per run. */
export function settings(numRuns: number): fc.Parameters<unknown> {
  return { seed: SEED, numRuns, endOnFailure: true }
}

/** A request the fuzz suite sends, as it describes it to the known-defect list. */
export interface FuzzRequest {
  method: string
  url: string
  who: Who
  body: string
}
