import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compactIds } from '../../src/query/id-set.ts'

const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)

// Ids close together (a bitset over their span), far apart (a sorted list), and beyond 32 bits.
const ids = fc.oneof(
  fc.array(fc.integer({ min: 1, max: 300 }), { maxLength: 200, size: 'max' }),
  fc.array(fc.integer({ min: 1, max: 2 ** 40 }), { maxLength: 60, size: 'max' }),
  fc.array(fc.integer({ min: 2 ** 31 - 70, max: 2 ** 31 + 70 }), { maxLength: 60, size: 'max' }),
)

describe('a compact set of ids', () => {
  it('holds exactly the ids a Set of them holds, each once, in a few bytes an id at most', () => {
    fc.assert(
      fc.property(
        ids,
        fc.array(fc.integer({ min: 0, max: 2 ** 41 }), { maxLength: 50, size: 'max' }),
        (list, probes) => {
          const set = new Set(list)
          const compact = compactIds(list)
          expect(compact.size).toBe(set.size)
          const walked: number[] = []
          compact.forEach((id) => {
            walked.push(id)
          })
          expect(walked.sort((a, b) => a - b)).toEqual([...set].sort((a, b) => a - b))
          expect([...compact].sort((a, b) => a - b)).toEqual([...set].sort((a, b) => a - b))
          for (const id of [...probes, ...list, ...list.map((n) => n + 1), 0, -1])
            expect(compact.has(id), String(id)).toBe(set.has(id))
          expect(compact.bytes).toBeLessThanOrEqual(8 * set.size + 128)
        },
      ),
      { numRuns: 300, seed },
    )
  })
})
