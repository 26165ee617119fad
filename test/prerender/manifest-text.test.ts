import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Manifest } from '../../src/prerender/manifest.ts'

// The manifest keeps its lines and blocks of lines between writes (an update changes a handful of 46,000 entries):
// after any run of changes its text is the text of a manifest made afresh from the same entries.

const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)

describe('the text of a manifest kept across changes', () => {
  it('is the text of a fresh manifest of the same entries, after any sets and deletes', () => {
    const file = fc.integer({ min: 0, max: 1500 }).map((n) => `f/${n.toString(36)}.json`)
    const op = fc.oneof(
      fc.tuple(fc.constant('set' as const), file, fc.integer({ min: 0, max: 9 })),
      fc.tuple(fc.constant('delete' as const), file, fc.constant(0)),
      fc.tuple(fc.constant('text' as const), file, fc.constant(0)),
    )
    const start = fc.array(fc.tuple(file, fc.integer({ min: 0, max: 9 })), { maxLength: 1500, size: 'max' })
    fc.assert(
      fc.property(start, fc.array(op, { maxLength: 60, size: 'max' }), (entries, ops) => {
        const entry = (n: number) => ({ bytes: n, sha256: `${n}`.repeat(4) })
        const kept = new Manifest(entries.map(([name, n]) => [name, entry(n)]))
        const head = { generated: 'now' }
        kept.bytes(head)
        for (const [kind, name, n] of ops) {
          if (kind === 'set') kept.set(name, entry(n))
          else if (kind === 'delete') kept.delete(name)
          else kept.bytes(head)
        }
        const text = kept.bytes(head).toString()
        expect(text).toBe(new Manifest([...kept]).bytes(head).toString())
        expect(Object.keys(JSON.parse(text).files).length).toBe(kept.size)
      }),
      { numRuns: 60, seed },
    )
  })

  it('is current after new sizes and hashes of files already there, with no file added or removed', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2000 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 10, max: 19 })), { minLength: 1, maxLength: 20, size: 'max' }),
        (count, changes) => {
          const entry = (n: number) => ({ bytes: n, sha256: `${n}`.repeat(4) })
          const kept = new Manifest(Array.from({ length: count }, (_, i) => [`f/${i}.json`, entry(i % 10)]))
          const head = { generated: 'now' }
          kept.bytes(head)
          for (const [at, n] of changes) kept.set(`f/${at % count}.json`, entry(n))
          expect(kept.bytes(head).toString()).toBe(new Manifest([...kept]).bytes(head).toString())
        },
      ),
      { numRuns: 60, seed },
    )
  })
})
