import fc from 'fast-check'
import { beforeAll, describe, it } from 'vitest'
import { fixtureApp } from '../helpers.ts'
import {
  ARG_NAMES,
  expectClean,
  headersOf,
  hostileString,
  KINDS,
  METHODS,
  NAMESPACE,
  routePath,
  send,
  settings,
  WHO,
} from './harness.ts'

let app: Awaited<ReturnType<typeof fixtureApp>>
beforeAll(async () => {
  app = await fixtureApp('reference')
})

/** Percent-encodes any string; a lone surrogate (not encodable) is sent as raw invalid %-bytes instead. */
const encode = (text: string) => {
  try {
    return encodeURIComponent(text)
  } catch {
    return text
      .replace(/[\uD800-\uDFFF]/g, '%ED%A0%80')
      .split('%')
      .map((part, i) => (i === 0 ? encodeURIComponent(part) : part))
      .join('%')
  }
}
const RUNS = Number(process.env.FUZZ_RUNS ?? 300)
const value = fc.oneof(
  hostileString,
  fc.integer().map(String),
  fc.constantFrom(
    '9007199254740993',
    '1e21',
    '-0',
    '0x10',
    '1.5',
    '99999999999999999999',
    '2147483648',
    '+100000 years',
    '-100000 years',
    '100000 days ago',
  ),
)
/** A query string: known and unknown names, lists (`a[]=`), nested (`a[b]=`), repeated keys. */
const query = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom(...ARG_NAMES),
        fc.constantFrom(...ARG_NAMES).map((name) => `${name}[]`),
        fc.constantFrom(...ARG_NAMES).map((name) => `${name}[x]`),
        fc.string({ maxLength: 8 }),
      ),
      value,
    ),
    { maxLength: 6 },
  )
  .map((pairs) => pairs.map(([name, v]) => `${encode(name)}=${encode(v)}`).join('&'))

/** Paths near the routes: traversal, encoded slashes, huge ids, unicode slugs, language prefixes. */
const segment = fc.oneof(
  fc.constantFrom(
    '..',
    '.',
    '..%2f',
    '%2e%2e%2f',
    '%2F',
    '%00',
    '%',
    '%zz',
    '%E6%96%B0',
    '新',
    '🎉',
    '9'.repeat(30),
    '-1',
    '0',
    '1e3',
    'by-slug',
    'media',
    '6-poster.png',
    '..%5c',
    'users.yaml',
  ),
  fc.string({ maxLength: 10 }).map(encode),
  fc.constantFrom(...KINDS),
)
const path = fc.oneof(
  routePath,
  fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => parts.join('/')),
  fc
    .tuple(fc.constantFrom(...KINDS), fc.constantFrom('by-slug/', ''), segment)
    .map(([kind, by, part]) => `${kind}/${by}${part}`),
)
const prefix = fc.constantFrom(
  NAMESPACE,
  'http://127.0.0.1:8089/ms/wp-json/calendar/events/v1',
  'http://127.0.0.1:8089/ZH-HANS/WP-JSON/calendar/events/v1',
  'http://127.0.0.1:8089/media',
  'http://127.0.0.1:8089',
)

describe('hostile query parameters and paths, as anyone', () => {
  it('answer every GET and HEAD of a list or record with a clean 4xx or a 2xx, whatever the query', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'HEAD'),
        routePath,
        query,
        fc.constantFrom(...WHO),
        async (method, where, q, who) => {
          const url = `${NAMESPACE}/${where}?${q}`
          const answer = await send(app, url, { method, headers: headersOf(who) })
          expectClean(answer.status, answer.body, method, `${who} ${method} ${url}`)
        },
      ),
      settings(RUNS),
    )
  }, 60_000)

  it('answer any method on hostile paths with a clean 4xx or a 2xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...METHODS),
        prefix,
        path,
        fc.constantFrom(...WHO),
        async (method, base, where, who) => {
          const url = `${base}/${where}`
          // Reads only: a fixture shared by the run must not change (writes are the bodies suite's).
          const init: RequestInit = {
            method,
            headers: headersOf(method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? who : 'anonymous'),
          }
          let answer: Awaited<ReturnType<typeof send>>
          try {
            answer = await send(app, url, init)
          } catch (error) {
            if (error instanceof TypeError) return // a URL the Request constructor itself refuses never reaches a server
            throw error
          }
          expectClean(answer.status, answer.body, method, `${who} ${method} ${url}`)
        },
      ),
      settings(RUNS),
    )
  }, 60_000)
})
