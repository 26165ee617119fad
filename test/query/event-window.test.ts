import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { EventEntry } from '../../src/context/indexes.ts'
import { buildWindow, followingWindow, type Ranges, windowPage } from '../../src/query/event-window.ts'
import { boundsOf } from '../../src/query/window-bounds.ts'
import { compareStart } from '../../src/query/indexes.ts'

const HOUR = 3_600_000
const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)

/** Only the fields a window reads: when an event starts and ends, when it was published, its id. */
function entry(id: number, start: number, length: number, published: number): EventEntry {
  return { id, start, end: start + length, published } as EventEntry
}

// Starts on a coarse grid (so many tie), lengths from none to days, some ending before they start.
const events = fc
  .array(
    fc.record({
      start: fc.integer({ min: 0, max: 60 }),
      length: fc.oneof(fc.constantFrom(0, 1, 2, 3), fc.integer({ min: -30, max: 100 })),
      published: fc.integer({ min: 0, max: 3 }),
    }),
    { maxLength: 80, size: 'max' },
  )
  .map((list) => list.map((e, i) => entry(1 + i, e.start * HOUR, e.length * HOUR, e.published)).sort(compareStart))

const bound = fc.integer({ min: -40, max: 200 }).map((h) => h * HOUR)
const ranges: fc.Arbitrary<Ranges> = fc.record({
  startMin: fc.oneof(fc.constant(-Infinity), bound),
  startMax: fc.oneof(fc.constant(Infinity), bound),
  endMin: fc.oneof(fc.constant(-Infinity), bound),
  endMax: fc.oneof(
    fc.constant(Infinity),
    bound,
    bound.map((b) => b - 1),
  ),
})

/** What a list held before windows: every event tested, in list order. */
function filtered(list: EventEntry[], r: Ranges): number[] {
  return list
    .filter((e) => e.start >= r.startMin && e.start <= r.startMax && e.end >= r.endMin && e.end <= r.endMax)
    .map((e) => e.id)
}

describe('a date window over the listed events', () => {
  it('gives the page, the total and the matches (those a filter keeps) that testing every event gives, for any events, ranges and page', () => {
    fc.assert(
      fc.property(events, ranges, fc.nat(30), fc.integer({ min: 1, max: 12 }), (list, r, offset, count) => {
        const window = buildWindow(list)!
        const all = filtered(list, r)
        const page = windowPage(window, r, offset, count)
        expect(page.total).toBe(all.length)
        expect(page.items.map((e) => e.id)).toEqual(all.slice(offset, offset + count))
        expect(page.all().map((e) => e.id)).toEqual(all)
        expect(page.all((e) => e.id % 3 !== 0).map((e) => e.id)).toEqual(all.filter((id) => id % 3 !== 0))
      }),
      { numRuns: 1500, seed },
    )
  })

  // With one id set's places (window-sets.ts): the margins walk the places, and the irregular matches the page needs
  // are ranked among the set's regular ones, which the places name.
  it('gives the page and the total of one id set that testing every event gives, for any set, events, ranges and page', () => {
    fc.assert(
      fc.property(
        events,
        ranges,
        fc.uniqueArray(fc.integer({ min: 1, max: 80 })),
        fc.nat(30),
        fc.integer({ min: 1, max: 12 }),
        (list, r, ids, offset, count) => {
          const window = buildWindow(list)!
          const set = new Set(ids)
          const has = (e: EventEntry) => set.has(e.id)
          const places = Int32Array.from(window.regular.flatMap((e, at) => (has(e) ? [at] : [])))
          const all = filtered(list, r).filter((id) => set.has(id))
          const page = windowPage(window, r, offset, count, { places, has })
          expect(page.total, `seed ${seed}`).toBe(all.length)
          expect(page.items.map((e) => e.id)).toEqual(all.slice(offset, offset + count))
          expect(page.all().map((e) => e.id)).toEqual(all)
        },
      ),
      { numRuns: 1500, seed },
    )
  })

  it('is not built over an event whose dates are not numbers, which only the full walk orders', () => {
    expect(buildWindow([entry(1, Number.NaN, 0, 0)])).toBeUndefined()
  })

  // A window keeps its regular events' starts and ends in typed arrays for its searches; a change moves them in
  // place (growing the buffers now and then) instead of reading the whole calendar again at the next list.
  it('keeps its starts and ends in step with its events through any changes, and lists what testing every event gives', () => {
    const change = fc.record({
      remove: fc.nat(),
      add: fc.option(
        fc.record({ start: fc.integer({ min: 0, max: 60 }), length: fc.integer({ min: -30, max: 100 }) }),
        { nil: undefined },
      ),
    })
    fc.assert(
      fc.property(events, fc.array(fc.tuple(change, ranges, fc.nat(30)), { maxLength: 40 }), (initial, steps) => {
        const listed = [...initial]
        const window = followingWindow(listed, () => true)!
        let id = 1000
        for (const [{ remove, add }, r, offset] of steps) {
          const before = listed.length > 0 ? listed[remove % listed.length] : undefined
          const after = add ? entry(id++, add.start * HOUR, add.length * HOUR, 0) : undefined
          if (before) listed.splice(listed.indexOf(before), 1)
          if (after) listed.splice(listed.filter((e) => compareStart(e, after) < 0).length, 0, after)
          // A window that asks to be built again is left: the app builds a new one.
          if (!window.follow!(before, after)) return
          const page = windowPage(window, r, offset, 5)
          const all = filtered(listed, r)
          expect(page.items.map((e) => e.id)).toEqual(all.slice(offset, offset + 5))
          expect(page.all().map((e) => e.id)).toEqual(all)
          expect(window.bounds).toEqual(boundsOf(window.regular))
          // The irregular events' bounds are dropped when they change and made again by the next query.
          expect(window.oddBounds).toEqual(boundsOf(window.irregular))
        }
      }),
      { numRuns: 600, seed },
    )
  })
})
