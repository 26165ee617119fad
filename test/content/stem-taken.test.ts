import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createCatalogue } from '../../src/content/store/catalogue.ts'
import type { FileEntry } from '../../src/content/model/record-types.ts'
import type { Lang } from '../../src/languages.ts'

// `stemTaken` answers from a count kept as files are placed, not by walking every key. The property holds it to
// that walk: any sequence of placing files under keys that differ only in case, emptying keys and placing them
// again gives the same answer for every stem, in every case. FC_SEED=<n> replays it; FC_RUNS sets its runs.
const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)
const RUNS = Number(process.env.FC_RUNS ?? 200)

const LANGS: Lang[] = ['en', 'ms', 'ta', 'zh-hans']
const KINDS = ['events', 'venues'] as const
/** Few letters, so stems often meet in another case. */
const stem = fc.stringMatching(/^[aAbB]{1,3}$/)

const file = (kind: string, stem: string, lang: Lang): FileEntry => ({
  path: `${kind}/${stem}.${lang}.md`,
  lang,
  data: {},
  body: '',
  undatedMs: 0,
})

const step = fc.record({
  kind: fc.constantFrom(...KINDS),
  stem,
  langs: fc.subarray(LANGS),
})

describe('stemTaken', () => {
  it('answers as a walk of every key with files would, in any case', () => {
    fc.assert(
      fc.property(
        fc.array(step, { maxLength: 40, size: 'max' }),
        fc.array(stem, { minLength: 1, maxLength: 8, size: 'max' }),
        (steps, asked) => {
          const catalogue = createCatalogue(false)
          const placed = new Map<string, number>()
          for (const { kind, stem, langs } of steps) {
            catalogue.place(
              `${kind}/${stem}`,
              langs.map((lang) => file(kind, stem, lang)),
            )
            placed.set(`${kind}/${stem}`, langs.length)
            for (const kindAsked of KINDS)
              for (const candidate of asked) {
                const wanted = `${kindAsked}/${candidate}`.toLowerCase()
                const walked = [...placed].some(([key, count]) => count > 0 && key.toLowerCase() === wanted)
                expect(catalogue.stemTaken(kindAsked, candidate), `seed ${SEED}: ${kindAsked}/${candidate}`).toBe(
                  walked,
                )
              }
          }
        },
      ),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    )
  })

  it('frees a stem once the last key of its case has no files', () => {
    const catalogue = createCatalogue(false)
    catalogue.place('events/Jazz', [file('events', 'Jazz', 'en')])
    catalogue.place('events/JAZZ', [file('events', 'JAZZ', 'ms')])
    expect(catalogue.stemTaken('events', 'jazz')).toBe(true)
    expect(catalogue.stemTaken('venues', 'jazz')).toBe(false)
    catalogue.place('events/Jazz', [])
    expect(catalogue.stemTaken('events', 'jazz')).toBe(true)
    catalogue.place('events/JAZZ', [])
    expect(catalogue.stemTaken('events', 'jazz')).toBe(false)
    catalogue.place('events/JAZZ', [])
    expect(catalogue.stemTaken('events', 'jAzz')).toBe(false)
  })
})
