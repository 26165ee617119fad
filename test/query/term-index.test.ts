import fc from 'fast-check'
import MiniSearch from 'minisearch'
import { describe, expect, it } from 'vitest'
import { createTermIndex } from '../../src/query/term-index.ts'

// The term index replaced MiniSearch under search. Here both take the same random adds and removals over
// words that begin one another (and some that only differ after a surrogate pair or in case), and must
// answer every lookup, exact and prefix, with the same ids; and both must agree with a plain reading.
const WORDS = ['a', 'an', 'and', 'jazz', 'jazzy', 'jaz', 'ja', 'b', 'z', 'éte', 'été', '爵士', '爵士乐', '𝒳', '𝒳y', '']
const word = fc.constantFrom(...WORDS)
const docText = fc.array(word, { maxLength: 6 })
const op = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), id: fc.integer({ min: 1, max: 12 }), words: docText }),
  fc.record({ kind: fc.constant('remove' as const), id: fc.integer({ min: 1, max: 12 }) }),
)
const lookup = fc.record({
  term: word.filter(Boolean),
  prefix: fc.boolean(),
  within: fc.option(fc.uniqueArray(fc.integer({ min: 1, max: 12 }))),
})

/** MiniSearch as search used it: one field, ids only, every document a term reaches noted and never scored. */
function miniSearch() {
  const mini = new MiniSearch<{ id: number; text: string }>({
    fields: ['text'],
    storeFields: [],
    tokenize: (text) => text.split(' ').filter(Boolean),
  })
  return {
    add(id: number, words: string[]) {
      if (mini.has(id)) mini.discard(id)
      mini.add({ id, text: words.join(' ') })
    },
    remove: (id: number) => mini.has(id) && mini.discard(id),
    lookup(term: string, prefix: boolean, within?: Set<number>) {
      const found = new Set<number>()
      const boostDocument = (id: number) => {
        if (!within || within.has(id)) found.add(id)
        return 0
      }
      mini.search(term, { prefix, boostDocument, tokenize: (text) => [text] })
      return found
    },
  }
}

const sorted = (ids: Iterable<number>) => [...ids].sort((a, b) => a - b)

describe('the term index', () => {
  it('answers every lookup as MiniSearch did and as a plain reading of the words does, through adds and removals', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(op, lookup), { maxLength: 40 }), (steps) => {
        const index = createTermIndex()
        const mini = miniSearch()
        const docs = new Map<number, string[]>()
        for (const step of steps) {
          if ('kind' in step && step.kind === 'add') {
            index.add(step.id, step.words.filter(Boolean))
            mini.add(step.id, step.words)
            docs.set(step.id, step.words.filter(Boolean))
          } else if ('kind' in step) {
            index.remove(step.id)
            mini.remove(step.id)
            docs.delete(step.id)
          } else {
            const within = step.within ? new Set(step.within) : undefined
            const plain = [...docs]
              .filter(
                ([id, words]) =>
                  (!within || within.has(id)) &&
                  words.some((w) => (step.prefix ? w.startsWith(step.term) : w === step.term)),
              )
              .map(([id]) => id)
            const ours = sorted(index.lookup(step.term, step.prefix, within))
            expect(ours).toEqual(sorted(mini.lookup(step.term, step.prefix, within)))
            expect(ours).toEqual(sorted(plain))
          }
        }
        expect(index.size.postings).toBe([...docs.values()].reduce((n, words) => n + new Set(words).size, 0))
        expect(index.size.terms).toBe(new Set([...docs.values()].flat()).size)
      }),
      { numRuns: 400, seed: Number(process.env.FC_SEED ?? Date.now() % 2 ** 31) },
    )
  })

  it('keeps each distinct word once, and gives back the room of words no event holds any more', () => {
    const index = createTermIndex()
    for (let id = 1; id <= 1_000; id++) index.add(id, ['jazz', 'night', `unique${id}`, 'jazz'])
    expect(index.size).toEqual({ terms: 1_002, postings: 3_000 })
    for (let id = 1; id <= 1_000; id++) index.add(id, ['jazz', `other${id % 10}`])
    expect(index.size).toEqual({ terms: 11, postings: 2_000 })
    expect(index.lookup('unique', true).size).toBe(0)
    expect(sorted(index.lookup('other', true)).length).toBe(1_000)
    expect(sorted(index.lookup('other3', false))).toEqual(Array.from({ length: 100 }, (_, i) => i * 10 + 3))
  })
})
