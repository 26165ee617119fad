import type { EventEntry } from '../context/indexes.ts'
import { compareStart } from './indexes.ts'
import { placeBound } from './window-bounds.ts'

// The regular matches of a date window (event-window.ts) as a sorted sequence with random access, and how its
// irregular matches fall among them: ranked by binary search, one at a time, and merged for a walk of every match.

/** The events of a window within the ranges, in list order, as a sorted sequence with random access. */
export interface Sequence {
  length: number
  at(i: number): EventEntry
  /** Visits every event in order (a walk over its slices, without `at`'s tests). */
  forEach(visit: (e: EventEntry) => void): void
}

/** The sequence of `regularMatches` whose core is the set's places within [low, high) of `list`. */
export function setSequence(
  list: readonly EventEntry[],
  places: Int32Array,
  [low, high]: [number, number],
  before: EventEntry[],
  after: EventEntry[],
): Sequence {
  const first = placeBound(places, low)
  const core = placeBound(places, high) - first
  const at = (i: number) =>
    i < before.length
      ? before[i]!
      : i < before.length + core
        ? list[places[first + i - before.length]!]!
        : after[i - before.length - core]!
  return {
    length: before.length + core + after.length,
    at,
    forEach(visit) {
      for (const e of before) visit(e)
      for (let i = first; i < first + core; i++) visit(list[places[i]!]!)
      for (const e of after) visit(e)
    },
  }
}

/** How many of a sorted sequence come before `entry` in list order. */
export function rank(seq: Sequence, entry: EventEntry): number {
  let low = 0
  let high = seq.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if (compareStart(seq.at(mid), entry) < 0) low = mid + 1
    else high = mid
  }
  return low
}

/** How many irregular matches come before place `offset` of the list (the first `j` placed at or past it). */
export function firstPlaced(n: number, offset: number, placeOf: (j: number) => number): number {
  let low = 0
  let high = n
  while (low < high) {
    const mid = (low + high) >>> 1
    if (placeOf(mid) < offset) low = mid + 1
    else high = mid
  }
  return low
}

/** The sequence and the irregular matches merged in list order; only those `keep` admits, if given. */
export function merged(seq: Sequence, odd: EventEntry[], keep?: (e: EventEntry) => boolean): EventEntry[] {
  const out: EventEntry[] = []
  const take = (e: EventEntry) => {
    if (!keep || keep(e)) out.push(e)
  }
  let j = 0
  seq.forEach((e) => {
    while (j < odd.length && compareStart(odd[j]!, e) < 0) take(odd[j++]!)
    take(e)
  })
  while (j < odd.length) take(odd[j++]!)
  return out
}
