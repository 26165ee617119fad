import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { TermPostings } from '../../src/query/term-postings.ts'

// Words that begin one another, so that prefixes reach several words, and ids in any order.
const WORDS = ['a', 'an', 'and', 'ant', 'jazz', 'jazzy', 'j', 'lantern', 'lan', 'x']
const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)

type Step = { add: boolean; id: number; terms: string[] }

const step: fc.Arbitrary<Step> = fc.record({
  add: fc.boolean(),
  id: fc.oneof(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 2 ** 40 })),
  terms: fc.uniqueArray(fc.constantFrom(...WORDS), { maxLength: 6 }),
})

/** Ids visited for a term, as a sorted list of distinct ids. */
function holding(postings: TermPostings, term: string, prefix: boolean): number[] {
  const ids = new Set<number>()
  postings.forEachHolding(term, prefix, (id) => ids.add(id))
  return [...ids].sort((a, b) => a - b)
}

describe('term postings', () => {
  it('hold, for every word and prefix, the ids added with it and not removed since, as a model does', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40, size: 'max' }), fc.boolean(), (steps, trimmed) => {
        const postings = new TermPostings()
        const model = new Map<string, Set<number>>()
        for (const { add, id, terms } of steps) {
          if (add) postings.add(id, terms)
          else postings.remove(id, terms)
          for (const term of terms) {
            const ids = model.get(term) ?? new Set()
            if (add) ids.add(id)
            else ids.delete(id)
            model.set(term, ids)
          }
        }
        if (trimmed) postings.trim()
        for (const term of [...WORDS, 'ja', 'l', 'b']) {
          const exact = [...(model.get(term) ?? [])].sort((a, b) => a - b)
          const begun = [...new Set(WORDS.filter((w) => w.startsWith(term)).flatMap((w) => [...(model.get(w) ?? [])]))]
          expect(holding(postings, term, false)).toEqual(exact)
          expect(holding(postings, term, true)).toEqual(begun.sort((a, b) => a - b))
        }
        // A word no event holds any more is gone from the tree.
        expect(postings.size).toBe([...model.values()].filter((ids) => ids.size > 0).length)
      }),
      { numRuns: 500, seed: SEED },
    )
  })

  it('visits an id once per word it holds, however often it was added', () => {
    const postings = new TermPostings()
    postings.add(7, ['jazz', 'jazzy'])
    postings.add(7, ['jazz'])
    postings.add(3, ['jazz'])
    const seen: number[] = []
    postings.forEachHolding('jazz', true, (id) => seen.push(id))
    expect(seen.sort()).toEqual([3, 7, 7])
  })
})
