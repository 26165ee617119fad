import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { oldestOf } from '../src/oldest.ts'

// oldestOf (src/oldest.ts) against an array in insertion order, over random sequences of what bounded caches do to
// their Maps and Sets: add a key, delete one anywhere, move one to the newest end (delete and set again, as a hit of a
// least-recently-used cache), clear, and drop the oldest. Enough keys come and go that V8 grows, shrinks and rehashes
// the tables under the kept iterator. FC_SEED=<n> replays a failure.
const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)
const RUNS = Number(process.env.FC_RUNS ?? 200)

const op = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('add' as const), key: fc.nat({ max: 400 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('move' as const), at: fc.nat() }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('drop' as const), times: fc.integer({ min: 1, max: 40 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('clear' as const) }) },
)

describe('the oldest key of a Map or Set', () => {
  for (const kind of ['Map', 'Set'] as const)
    it(`is the first of its keys in insertion order, in a ${kind}, after any adds, deletes, moves and clears`, () => {
      fc.assert(
        fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
          const map = new Map<number, number>()
          const set = new Set<number>()
          const keys = kind === 'Map' ? map : set
          const put = (key: number) => (kind === 'Map' ? map.set(key, key) : set.add(key))
          const model: number[] = []
          for (const step of ops) {
            if (step.kind === 'add' && !keys.has(step.key)) {
              put(step.key)
              model.push(step.key)
            } else if ((step.kind === 'delete' || step.kind === 'move') && model.length > 0) {
              const [key] = model.splice(step.at % model.length, 1)
              keys.delete(key!)
              if (step.kind === 'move') {
                put(key!)
                model.push(key!)
              }
            } else if (step.kind === 'drop') {
              for (let i = 0; i < step.times; i++) {
                const oldest = oldestOf(keys)
                expect(oldest, `seed ${SEED}`).toBe(model[0])
                if (oldest === undefined) break
                keys.delete(oldest)
                model.shift()
              }
            } else if (step.kind === 'clear') {
              keys.clear()
              model.length = 0
            }
          }
          expect(oldestOf(keys), `seed ${SEED}`).toBe(model[0])
        }),
        { numRuns: RUNS, seed: SEED },
      )
    })

  it('keeps one walk per collection: two Maps dropped in turn each give their own oldest', () => {
    const a = new Map([1, 2, 3].map((n) => [n, n]))
    const b = new Map([7, 8, 9].map((n) => [n, n]))
    for (const [map, expected] of [
      [a, 1],
      [b, 7],
      [a, 2],
      [b, 8],
    ] as const) {
      expect(oldestOf(map)).toBe(expected)
      map.delete(expected)
    }
  })
})
