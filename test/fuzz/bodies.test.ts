import { rm } from 'node:fs/promises'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { writableApp } from '../helpers.ts'
import {
  ARG_NAMES,
  expectClean,
  headersOf,
  hostileValue,
  NAMESPACE,
  routePath,
  send,
  settings,
  snapshotTree,
  WHO,
} from './harness.ts'

let app: Awaited<ReturnType<typeof writableApp>>
beforeAll(async () => {
  app = await writableApp('reference')
})
afterAll(async () => {
  await rm(app.dir, { recursive: true, force: true })
})

const key = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ARG_NAMES) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
)
const jsonObject = fc.dictionary(key, hostileValue, { maxKeys: 8 }).map((object) => JSON.stringify(object))
const deep = (open: string, close: string) =>
  fc.integer({ min: 30, max: 20_000 }).map((n) => open.repeat(n) + close.repeat(n))
const rawJson = fc.oneof(
  deep('[', ']'),
  deep('{"a":', '}').map((text) => text.replace(/}$/, '1}')),
  fc.constantFrom(
    '{',
    '{"title":',
    'null',
    '[]',
    '"text"',
    '1e999',
    '{"__proto__": {"polluted": 1}}',
    '{"constructor": {"prototype": {"x": 1}}}',
    '\u0000',
    '{"title": "\u0000"}',
  ),
  fc.string(),
)
const formBody = fc
  .array(
    fc.tuple(
      fc.oneof(
        key,
        key.map((name) => `${name}[]`),
        key.map((name) => `${name}[venue]`),
      ),
      fc.oneof(fc.string(), fc.constantFrom('__proto__', '1', '', '%00', '<script>')),
    ),
    { maxLength: 10 },
  )
  .map((pairs) => pairs.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&'))
// Nearly valid writes reach past the argument checks: a real base, some fields hostile or linked.
const BASES: Record<string, Record<string, unknown>> = {
  events: { title: 'Fuzzed', start_date: '2026-12-20 18:00:00', end_date: '2026-12-20 20:00:00' },
  venues: { venue: 'Fuzz Hall' },
  organizers: { organizer: 'Fuzz Org' },
  categories: { name: 'Fuzz Category' },
  tags: { name: 'Fuzz Tag' },
}
/** Per field, values that pass its checks (mostly) or hostile ones (sometimes). */
const field = (...valid: unknown[]) =>
  fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...valid) }, { weight: 1, arbitrary: hostileValue })
const FIELDS = {
  venue: field({ venue: 'New Hall', city: 'X' }, { venue: 'Town Hall' }, 4, '4', 0, '', { id: 4 }, [
    { venue: 'A' },
    { venue: 'B' },
  ]),
  organizer: field(
    [{ organizer: 'New Org' }],
    { organizer: 'Acme Events' },
    5,
    '5,5',
    [5, { organizer: 'Other' }],
    '',
    [],
  ),
  categories: field('music', ['music', 'new-term'], 2, [2, 3], '', 'Brand New'),
  tags: field('outdoor', 3, ['fresh-tag'], ''),
  status: field('publish', 'draft', 'pending', 'private', 'future', 'trash'),
  author: field(1, 2, 3, 4, 5, 99),
  password: field('', 'secret'),
  start_date: field('2026-12-21 10:00:00', '2026-12-19', '+100000 years', '0001-01-01 00:00:00', 1795000000),
  end_date: field('2026-12-21 12:00:00', '2026-12-18', '+100000 years', '9999-12-31 23:59:59'),
  website: field('https://example.org/', '', 'javascript:alert(1)'),
  image: field(6, 'media/6-poster.png', 'https://example.org/i.png', ''),
  description: field('', 'Plain text', '<script>alert(1)</script>', '>'.repeat(3000)),
  slug: field('new-slug', 'summer-concert', '', '新-gala'),
  parent: field(0, 2, 99),
  name: field('music', 'Music', 'Brand New'),
  venue_name: field('x'),
}
const nearlyValid = (kind: string) =>
  fc.record(FIELDS, { requiredKeys: [] }).chain((all) => {
    const keys = Object.keys(all)
    return fc.subarray(keys, { maxLength: 3 }).map((chosen) =>
      JSON.stringify({
        ...BASES[kind],
        ...Object.fromEntries(chosen.map((key) => [key, all[key as keyof typeof all]])),
      }),
    )
  })
const REAL_IDS: Record<string, number[]> = {
  events: [7, 8, 13, 16],
  venues: [4],
  organizers: [5],
  categories: [2],
  tags: [3],
}
/** A write aimed at one kind: its list (create) or one of its records (update, delete), by a writer or not. */
const WRITERS = ['admin', 'editor', 'author', 'contributor'] as const
const aimed = fc.constantFrom(...Object.keys(BASES)).chain((kind) =>
  fc.record({
    method: fc.constantFrom('POST', 'POST', 'POST', 'PUT', 'PATCH', 'DELETE'),
    path: fc.oneof(
      { weight: 2, arbitrary: fc.constant(kind) },
      { weight: 1, arbitrary: fc.constantFrom(...REAL_IDS[kind]!).map((id) => `${kind}/${id}`) },
    ),
    query: fc.constantFrom('', '', '', '?force=true', '?password=x'),
    who: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...WRITERS) },
      { weight: 1, arbitrary: fc.constantFrom(...WHO) },
    ),
    body: nearlyValid(kind).map((text) => ({ text, type: 'application/json' })),
  }),
)
const body = fc.oneof(
  { weight: 4, arbitrary: jsonObject.map((text) => ({ text, type: 'application/json' })) },
  { weight: 2, arbitrary: rawJson.map((text) => ({ text, type: 'application/json' })) },
  { weight: 2, arbitrary: formBody.map((text) => ({ text, type: 'application/x-www-form-urlencoded' })) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.string(),
        fc.constantFrom('', 'text/plain', 'multipart/form-data; boundary=x', 'application/json; charset=latin1'),
      )
      .map(([text, type]) => ({ text, type })),
  },
)
const anywhere = fc.record({
  method: fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE'),
  path: routePath,
  query: fc.constantFrom(
    '',
    '?_method=PUT',
    '?_method=DELETE',
    '?_method=PATCH',
    '?password=x',
    '?force=true',
    '?_method=GET',
  ),
  who: fc.constantFrom(...WHO),
  body,
})

describe('hostile request bodies, on every route and method, as anyone', () => {
  it('answer a clean 4xx or a 2xx, and leave the tree as it was when they are refused', async () => {
    let tree = await snapshotTree(app.content)
    const statuses = new Map<number, number>()
    await fc.assert(
      fc.asyncProperty(
        fc.oneof({ weight: 1, arbitrary: anywhere }, { weight: 3, arbitrary: aimed }),
        async ({ method, path, query, who, body: { text, type } }) => {
          const url = `${NAMESPACE}/${path}${query}`
          const headers: Record<string, string> = { ...headersOf(who), ...(type ? { 'Content-Type': type } : {}) }
          const answer = await send(app, url, { method, body: text, headers })
          const after = await snapshotTree(app.content)
          expectClean(answer.status, answer.body, method, `${who} ${method} ${url} (${type}) ${text.slice(0, 200)}`)
          if (answer.status >= 400) {
            const changed = [...new Set([...tree.keys(), ...after.keys()])].filter(
              (file) => tree.get(file) !== after.get(file),
            )
            if (changed.length > 0)
              throw new Error(
                `${who} ${method} ${url} was refused (${answer.status}) but changed ${changed.join(', ')}`,
              )
          }
          if (process.env.FUZZ_DEBUG)
            console.info(`${answer.status} ${who} ${method} ${path}${query} ${text.slice(0, 150)}`)
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
          tree = after
        },
      ),
      settings(Number(process.env.FUZZ_RUNS ?? 300)),
    )
    console.info(`fuzz bodies: statuses ${JSON.stringify(Object.fromEntries(statuses))}`)
  }, 60_000)
})

// Defects this fuzzing met before they were fixed, one example each.
describe('event writes the fuzzing once broke', () => {
  const EVENT = { title: 'Fuzzed', start_date: '2026-12-20 18:00:00', end_date: '2026-12-20 20:00:00' }
  let fresh: Awaited<ReturnType<typeof writableApp>>
  beforeAll(async () => {
    fresh = await writableApp('reference')
  })
  afterAll(async () => {
    await rm(fresh.dir, { recursive: true, force: true })
  })
  it.each([
    ['an inline new venue', { ...EVENT, venue: { venue: 'New Hall', city: 'X' } }],
    ['an inline new organizer', { ...EVENT, organizer: [{ organizer: 'New Org' }] }],
    ['a start of +100000 years', { ...EVENT, start_date: '+100000 years' }],
  ])('an event write with %s answers a clean 4xx or 2xx', async (_name, event) => {
    const answer = await send(fresh, `${NAMESPACE}/events`, {
      method: 'POST',
      body: JSON.stringify(event),
      headers: { ...headersOf('admin'), 'Content-Type': 'application/json' },
    })
    expectClean(answer.status, answer.body, 'POST', `POST events ${JSON.stringify(event)}`)
  })
})
