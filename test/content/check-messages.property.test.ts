import fc from 'fast-check'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { githubAnnotation } from '../../src/cli/check.ts'
import { KINDS, NAME_FIELD, type Kind } from '../../src/content/model/kinds.ts'
import { problemLine } from '../../src/content/checks/problems.ts'
import { checkEvent } from '../../src/content/checks/event-checks.ts'
import { sourceKeys, translationKeys, unknownKeyWarnings } from '../../src/content/checks/unknown-keys.ts'
import { checkSource } from '../../src/content/schema/records.ts'
import { loadStore } from './trees.ts'

const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz_0123456789'.split('')

/** One edit of `key`: a letter inserted, deleted, replaced, or two neighbours swapped. */
function oneEdit(key: string) {
  const position = fc.nat({ max: key.length - 1 })
  const letter = fc.constantFrom(...ALPHABET)
  return fc.oneof(
    fc.tuple(fc.nat({ max: key.length }), letter).map(([i, c]) => key.slice(0, i) + c + key.slice(i)),
    position.map((i) => key.slice(0, i) + key.slice(i + 1)),
    fc.tuple(position, letter).map(([i, c]) => key.slice(0, i) + c + key.slice(i + 1)),
    position.filter((i) => i < key.length - 1).map((i) => key.slice(0, i) + key[i + 1] + key[i] + key.slice(i + 2)),
  )
}

/** A source file of `kind` with everything it needs, and one more line. */
function sourceFile(kind: Kind, id: number, extra: string): string {
  const dates = kind === 'events' ? 'start_date: 2026-12-20 18:00:00\nend_date: 2026-12-20 20:00:00\n' : ''
  return `---\nid: ${id}\n${NAME_FIELD[kind]}: Name\n${dates}${extra}\n---\nBody.\n`
}

/** A misspelling: a key of the kind, the role of the file it is in, and the key as written. */
const misspelling = fc
  .tuple(fc.constantFrom(...KINDS), fc.constantFrom('source' as const, 'translation' as const))
  .chain(([kind, role]) => {
    const known = role === 'source' ? sourceKeys(kind) : translationKeys(kind)
    return fc
      .constantFrom(...known)
      .chain((key) =>
        fc.record({ kind: fc.constant(kind), role: fc.constant(role), key: fc.constant(key), typed: oneEdit(key) }),
      )
  })
  .filter(({ kind, typed }) => typed !== '' && /^[a-z_]/.test(typed) && !sourceKeys(kind).includes(typed))

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'almanac-misspell-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('a misspelt front-matter key', () => {
  it('is a warning that suggests the key meant, and the record still loads', async () => {
    let run = 0
    await fc.assert(
      fc.asyncProperty(misspelling, async ({ kind, role, key, typed }) => {
        const content = join(dir, `tree-${run++}`)
        await mkdir(join(content, kind), { recursive: true })
        const source = `${kind}/thing.en.md`
        const file = role === 'source' ? source : `${kind}/thing.ms.md`
        await writeFile(join(content, source), sourceFile(kind, 7, role === 'source' ? `${typed}: x` : ''))
        if (role === 'translation')
          await writeFile(join(content, file), `---\n${NAME_FIELD[kind]}: Nama\n${typed}: x\n---\n`)
        const { store, problems } = await loadStore(content)
        expect(store.get(kind, 7), `${kind} loads`).toBeDefined()
        if (role === 'translation') expect(store.get(kind, 7)!.files.has('ms')).toBe(true)
        expect(store.problems()).toEqual(problems)
        expect(problems).toHaveLength(1)
        const [warning] = problems
        expect(warning).toMatchObject({
          path: file,
          severity: 'warning',
          line: role === 'source' ? (kind === 'events' ? 6 : 4) : 3,
        })
        expect(warning!.message.startsWith(`${typed}: not a field of`)).toBe(true)
        const suggested = /did you mean (.+)\?$/.exec(warning!.message)?.[1]?.split(/, | or /)
        expect(suggested).toContain(key)
        await rm(content, { recursive: true, force: true })
      }),
      { numRuns: 60, seed },
    )
  })
})

/** Text meant to break a line of output or its escaping: controls, separators, quotes, huge runs. */
const hostileText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60, size: 'max' }),
  fc.string({
    unit: fc.constantFrom(
      '\n',
      '\r',
      '\u2028',
      '\u2029',
      '\u0085',
      '\u202e',
      '\u0000',
      '\u001b',
      '"',
      '\\',
      '%',
      ':',
      ',',
      '::',
      'é',
      '😀',
      '\ud800',
    ),
    maxLength: 80,
    size: 'max',
  }),
  fc.tuple(fc.constantFrom('x', '\n', '\u2028'), fc.integer({ min: 1_000, max: 200_000 })).map(([c, n]) => c.repeat(n)),
)
const hostileValue = fc.oneof(
  hostileText,
  fc.array(hostileText, { maxLength: 4 }),
  fc.dictionary(hostileText, hostileText, { maxKeys: 3 }),
)
const FIELDS = [
  'status',
  'title',
  'start_date',
  'end_date',
  'timezone',
  'venue',
  'cost',
  'featured',
  'author',
  'image',
  'date',
]

/** Whether a line of output stays one line, bounded, and reads back from JSON as written. */
function staysOneLine(message: string) {
  const annotation = githubAnnotation('error', 'content/events/x.en.md', 1, message)
  const text = problemLine('content/events/x.en.md', { path: 'x', message })
  for (const line of [message, annotation, text]) expect(line).not.toMatch(/[\p{Cc}\p{Zl}\p{Zp}]/u)
  expect(message.length).toBeLessThan(400)
  expect(JSON.parse(JSON.stringify({ message })).message).toBe(message)
}

describe('a hostile value in a field', () => {
  it('gives messages that stay one line in every format', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FIELDS), hostileValue, hostileText, (field, value, key) => {
        const data = {
          id: 1,
          title: 'T',
          start_date: '2026-01-01 10:00:00',
          end_date: '2026-01-01 11:00:00',
          [field]: value,
        }
        const messages = [
          ...checkSource('events', data),
          ...checkEvent('events', data, 'UTC'),
          ...unknownKeyWarnings('events', { [key]: value }, 'source'),
        ]
        for (const message of messages) staysOneLine(message)
      }),
      { numRuns: 300, seed },
    )
  })
})
