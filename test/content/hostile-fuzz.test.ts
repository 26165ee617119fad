import { mkdir, mkdtemp, readdir, rm, unlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkContent } from '../../src/content/check.ts'
import { parseFrontMatter } from '../../src/content/files/front-matter.ts'
import { stringifyFrontMatter, updateFrontMatter } from '../../src/content/files/front-matter-write.ts'
import { KEY_ORDER } from '../../src/content/model/kinds.ts'
import { normalize } from '../../src/content/files/normalize.ts'
import type { Store } from '../../src/content/store.ts'
import { call, testApp } from '../helpers.ts'
import { eventFile, loadStore } from './trees.ts'

declare global {
  var __fuzzRan: boolean | undefined
}

const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)
const SCRIPT = '(function () { globalThis.__fuzzRan = true; return { id: 1, title: "Ran" } })()'

/** `a0: &a0 [x, …]`, each level nine aliases of the one before: 9^depth nodes to whatever walks it. */
const laughs = (depth: number) =>
  [
    'a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]',
    ...Array.from({ length: depth }, (_, i) => `a${i + 1}: &a${i + 1} [${Array(9).fill(`*a${i}`).join(', ')}]`),
  ].join('\n')

const FRAGMENTS = [
  SCRIPT,
  '__proto__: {polluted: true}',
  '__proto__:\n  polluted: true',
  'constructor: {prototype: {polluted: true}}',
  'extra: {"__proto__": {"polluted": true}}',
  'extra:\n  - prototype: {polluted: true}',
  'x: !!js/function "function () { globalThis.__fuzzRan = true }"',
  'x: !!js/regexp /a+$/',
  'x: !!js/undefined ""',
  'x: !!python/object/apply:os.system ["touch /tmp/x"]',
  'x: !<tag:yaml.org,2002:js/function> "function () {}"',
  '<<: {polluted: true}',
  'a: &a {x: 1}\nb: *a',
  'a: &a [1]\nb: [*a, *a]',
  's: &s text\nt: *s',
  'title: a: b',
  'title: [unclosed',
  'id: 5\nid: 6',
  '? [a, b]\n: c',
  '"\\u0000": 1',
  'x: "\\uD800"',
  '...\nafter: end',
  '%YAML 1.2',
  '\t- tab',
  'x: 1e999999',
  'zip: 0x1F',
  'start_date: 0000-00-00 00:00:00',
]

/** Odd but well-typed values: the file may load, and must then be served without a 5xx. */
const ODD = [
  'excerpt: "<script>globalThis.__fuzzRan = true</script>"',
  'cost: "S$10 – S$20"',
  'website: "javascript:alert(1)"',
  'categories: [999999999999]',
  'tags: [0, -1]',
  'venue: 4',
  'image: ../../.almanac/users.yaml',
  'image: /etc/passwd',
  'image: 99999',
  'timezone: UTC+14',
  'all_day: true',
  'featured: true',
  'status: private',
  'status: "__proto__"',
  'password: ""',
  'author: 999999',
  'date: 0001-01-01 00:00:00',
  'custom: {nested: [1, [2, [3, {deep: true}]]]}',
  'toString: shadowed',
  'hasOwnProperty: 1',
  'valueOf: {x: 1}',
]

const fragment = fc.oneof(
  fc.constantFrom(...FRAGMENTS),
  fc.constantFrom(...ODD),
  fc.integer({ min: 2, max: 9 }).map(laughs),
  fc.integer({ min: 1, max: 3000 }).map((n) => `x: ${'['.repeat(n)}${']'.repeat(n)}`),
  fc
    .integer({ min: 1, max: 200 })
    .map((n) => `${Array.from({ length: n }, (_, i) => `${' '.repeat(i * 2)}k${i}:`).join('\n')} 1`),
  fc.uint8Array({ maxLength: 200, size: 'max' }).map((bytes) => Buffer.from(bytes).toString('latin1')),
  fc.string({ unit: 'binary', maxLength: 120, size: 'max' }),
  fc.string({ maxLength: 40, size: 'max' }).map((s) => `k: ${s}`),
)

const fence = fc.constantFrom(
  '',
  '',
  '',
  'yaml',
  'YML',
  'js',
  'javascript',
  'JS',
  ' js',
  'coffee',
  'json',
  'toml',
  'cson',
)
// Deeply nested Markdown (`> ` × 3000 once overflowed the renderer's stack and failed every list holding it).
const body = fc.oneof(
  fc.constant(''),
  fc.string({ maxLength: 200, size: 'max' }),
  fc.constantFrom('---\nx: 1\n---', '<script>globalThis.__fuzzRan = true</script>', '> '.repeat(20), '> '.repeat(3000)),
)

/** A hostile file for record `id`: a real event's fields and hostile fragments, under some fence, or no fence at all. */
const hostileFile = (id: number) =>
  fc.oneof(
    {
      weight: 5,
      arbitrary: fc
        .tuple(fence, fc.array(fragment, { minLength: 1, maxLength: 3 }), body)
        .map(
          ([lang, parts, text]) =>
            `---${lang}\nid: ${id}\ntitle: Hostile ${id}\nslug: hostile-${id}\nstart_date: 2026-12-20 18:00:00\nend_date: 2026-12-20 20:00:00\n${parts.join('\n')}\n---\n${text}`,
        ),
    },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 300, size: 'max' }) },
    {
      weight: 1,
      arbitrary: fc.uint8Array({ maxLength: 300, size: 'max' }).map((bytes) => Buffer.from(bytes).toString('latin1')),
    },
  )

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'almanac-fuzz-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** A tree of two good events and the hostile files (events/z-hostile-<i>.en.md, ids 100+i). */
async function writeTree(files: string[]) {
  await rm(join(dir, 'content'), { recursive: true, force: true })
  await mkdir(join(dir, 'content/events'), { recursive: true })
  await writeFile(join(dir, 'content/events/a-good-1.en.md'), eventFile(1, 'Good One'))
  await writeFile(join(dir, 'content/events/a-good-2.en.md'), eventFile(2, 'Good Two'))
  for (const [i, text] of files.entries()) await writeFile(join(dir, `content/events/z-hostile-${i}.en.md`), text)
}

function expectNothingRan() {
  expect(globalThis.__fuzzRan).toBeUndefined()
  expect(({} as Record<string, unknown>).polluted).toBeUndefined()
}

/** Reads of every kind, and of each hostile record, answer without a server error. */
async function expectNoServerError(store: Store, count: number) {
  const app = testApp(store)
  const paths = [
    'events',
    'events?per_page=50',
    'events?search=hostile',
    'venues',
    'tags',
    ...Array.from({ length: count }, (_, i) => `events/${100 + i}`),
  ]
  for (const path of paths) expect((await call(app, path)).status, path).toBeLessThan(500)
}

/** Every hostile file is served, or is a problem with a line; the good files are served. */
function expectAccounted(store: Store, files: string[], problems: { path: string; line?: number }[]) {
  expect(store.get('events', 1)?.source.data.title).toBe('Good One')
  expect(store.get('events', 2)?.source.data.title).toBe('Good Two')
  files.forEach((text, i) => {
    const path = `events/z-hostile-${i}.en.md`
    if (store.get('events', 100 + i)?.source.path === path) return
    const found = problems.filter((p) => p.path === path)
    expect(found.length, `${path} is neither served nor a problem:\n${text.slice(0, 500)}`).toBeGreaterThan(0)
    for (const problem of found) expect(problem.line, path).toBeGreaterThanOrEqual(1)
  })
}

describe('hostile content files', () => {
  it('never run code, never throw out of the store or check, and are each served or a problem with a line', async () => {
    const files = fc
      .array(fc.nat(), { minLength: 1, maxLength: 4 })
      .chain((slots) => fc.tuple(...slots.map((_, i) => hostileFile(100 + i))))
    await fc.assert(
      fc.asyncProperty(files, files, async (first, second) => {
        globalThis.__fuzzRan = undefined
        await writeTree(first)
        const { store, problems } = await loadStore(join(dir, 'content'))
        expectNothingRan()
        expectAccounted(store, first, problems)
        await expectNoServerError(store, first.length)
        const checked = await checkContent(join(dir, 'content'), false)
        expectAccounted(
          store,
          first,
          checked.problems.filter((p) => p.severity === 'error'),
        )
        // The same paths rewritten as the watcher would hand them over.
        for (const name of await readdir(join(dir, 'content/events')))
          if (name.startsWith('z-')) await unlink(join(dir, 'content/events', name))
        for (const [i, text] of second.entries())
          await writeFile(join(dir, `content/events/z-hostile-${i}.en.md`), text)
        await store.reload(
          first
            .map((_, i) => `events/z-hostile-${i}.en.md`)
            .concat(second.map((_, i) => `events/z-hostile-${i}.en.md`)),
        )
        expectNothingRan()
        expect(store.get('events', 1)?.source.data.title).toBe('Good One')
        await expectNoServerError(store, second.length)
        for (const record of store.list('events'))
          expect(Object.getPrototypeOf(record.source.data)).toBe(Object.prototype)
      }),
      { numRuns: 40, seed },
    )
  })

  it('cannot make aliases blow up: nine levels of nine aliases are refused at once, on their line', async () => {
    await writeTree([eventFile(100, 'Laughs', `${laughs(9)}\n`)])
    const started = performance.now()
    const { store, problems } = await loadStore(join(dir, 'content'))
    expect(performance.now() - started).toBeLessThan(2_000)
    expect(store.get('events', 100)).toBeUndefined()
    expect(problems).toEqual([{ path: 'events/z-hostile-0.en.md', line: 9, message: expect.stringMatching(/alias/) }])
  })

  it('leaves out a file too big to be a record, and one nested too deep', async () => {
    await writeTree([
      eventFile(100, 'Huge', `x: "${'a'.repeat(5 * 1024 * 1024)}"\n`),
      eventFile(101, 'Deep', `x: ${'['.repeat(50_000)}${']'.repeat(50_000)}\n`),
    ])
    const { store, problems } = await loadStore(join(dir, 'content'))
    expect(store.get('events', 100)).toBeUndefined()
    expect(store.get('events', 101)).toBeUndefined()
    expect(problems.map((p) => p.path)).toEqual(['events/z-hostile-0.en.md', 'events/z-hostile-1.en.md'])
  })
})

describe('updates of hand-written files', () => {
  const value = fc.oneof(
    fc.string({ maxLength: 20, size: 'max' }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.nat({ max: 50 }), { maxLength: 3 }),
    fc.constantFrom('038981', '012345', '0x1F', '1_000', 'yes', '~', '- a', '# b', 'a: b', "it's", '"q"'),
  )
  const key = fc.constantFrom(...KEY_ORDER.venues.slice(1), 'custom', 'other')
  const data = fc.dictionary(key, value, { maxKeys: 8 }).map((d): Record<string, unknown> => ({ id: 4, ...d }))
  const style = (text: string) =>
    text
      .replace(/^(\w+): ("[^"]*")$/gm, (line, k: string, v: string) =>
        /[\\']/.test(v) ? line : `${k}: '${v.slice(1, -1)}'`,
      )
      .replace(/^(\w+): (.*)$/gm, '$1: $2   # note')

  it('read back exactly as a fresh write would, and keep every untouched line as the editor wrote it', () => {
    fc.assert(
      fc.property(data, data, fc.string({ maxLength: 30, size: 'max' }), (before, after, text) => {
        const previous = style(stringifyFrontMatter(before, 'Body', KEY_ORDER.venues))
        const updated = updateFrontMatter(previous, after, text, KEY_ORDER.venues, normalize)
        const fresh = parseFrontMatter(stringifyFrontMatter(after, text, KEY_ORDER.venues))
        const read = parseFrontMatter(updated)
        expect(normalize(read.data, read.written)).toEqual(normalize(fresh.data, fresh.written))
        expect(read.body).toBe(fresh.body)
        const old = normalize(parseFrontMatter(previous).data, parseFrontMatter(previous).written)
        for (const line of previous.split('\n').slice(1, -3)) {
          const k = /^(\w+):/.exec(line)?.[1]
          if (
            k &&
            k in after &&
            JSON.stringify(old[k]) === JSON.stringify(after[k]) &&
            updated !== stringifyFrontMatter(after, text, KEY_ORDER.venues)
          )
            expect(updated.split('\n')).toContain(line)
        }
      }),
      { numRuns: 300, seed },
    )
  })
})
