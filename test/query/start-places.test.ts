import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { EventEntry } from '../../src/context/indexes.ts'
import { compareStart } from '../../src/query/indexes.ts'
import { entriesInStartOrder, idsInStartOrder, placeBits, startColumns } from '../../src/query/start-places.ts'

const HOUR = 3_600_000
const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)

// Events on a coarse grid (many tie on start and publication date), ids dense or spread far apart (so that
// places are found both in an array by id and in a Map), and now and then a date that is not a number.
const events = fc
  .tuple(
    fc.array(
      fc.record({
        start: fc.oneof(fc.integer({ min: 0, max: 40 }), fc.constant(Number.NaN)),
        length: fc.oneof(fc.constantFrom(0, 1, 2), fc.integer({ min: -10, max: 80 })),
        published: fc.integer({ min: 0, max: 3 }),
        listed: fc.boolean(),
        flag: fc.boolean(),
      }),
      { maxLength: 120, size: 'max' },
    ),
    fc.constantFrom(1, 7, 1_000_003),
  )
  .map(([list, step]) =>
    list
      .map((e, i) => ({
        ...({
          id: 5 + i * step,
          start: e.start * HOUR,
          end: (e.start + e.length) * HOUR,
          published: e.published,
        } as EventEntry),
        listedHere: e.listed,
        featured: e.flag,
      }))
      .sort(compareStart),
  )

const bound = fc.integer({ min: -20, max: 130 }).map((h) => h * HOUR)
const ranges = fc.record({
  startMin: fc.oneof(fc.constant(-Infinity), bound),
  startMax: fc.oneof(fc.constant(Infinity), bound),
  endMin: fc.oneof(fc.constant(-Infinity), bound),
  endMax: fc.oneof(fc.constant(Infinity), bound),
})

describe('an id set walked by places in the start index', () => {
  it('gives what testing each event of the set and sorting by list order gives, for any set, ranges and filter', () => {
    fc.assert(
      fc.property(
        events,
        fc.array(fc.nat(), { maxLength: 150, size: 'max' }),
        ranges,
        fc.boolean(),
        (list, picks, r, useKeep) => {
          // Ids of the list, repeated, and some of no event at all.
          const ids = new Set(
            picks.map((n) => (n % 3 === 0 ? n * 11 + 2 : (list[n % Math.max(1, list.length)]?.id ?? n))),
          )
          const columns = startColumns(list)
          const listed = placeBits(list, (e) => (e as (typeof list)[number]).listedHere)
          const keep = useKeep ? (e: EventEntry) => e.featured : undefined
          const got = idsInStartOrder(ids, columns, { ...r, listed }, keep).map((e) => e.id)
          // As `passes` reads them: a comparison with NaN is false, so a date that is not a number fails no range.
          const inRanges = (e: EventEntry) =>
            !(e.start < r.startMin || e.start > r.startMax || e.end < r.endMin || e.end > r.endMax)
          const wanted = list
            .filter((e) => ids.has(e.id) && e.listedHere && inRanges(e) && (!keep || keep(e)))
            .map((e) => e.id)
          expect(got).toEqual(wanted)
        },
      ),
      { numRuns: 400, seed },
    )
  })

  it('puts any events of the index back in its order', () => {
    fc.assert(
      fc.property(events, fc.array(fc.boolean(), { maxLength: 120, size: 'max' }), (list, taken) => {
        const some = list.filter((_, i) => taken[i]).reverse()
        const got = entriesInStartOrder(some, startColumns(list))
        expect(got).toEqual(list.filter((_, i) => taken[i]))
      }),
      { numRuns: 200, seed },
    )
  })
})
