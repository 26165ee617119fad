import type { EventEntry, IdSet } from '../context/indexes.ts'

/**
 * The start index (list order) as columns by place, for walking an id set without reading its events: each
 * id's place, and each place's start and end. Any change of an event moves places, so they are built again
 * on the first list after it (one pass over the index).
 */
export interface StartColumns {
  byStart: readonly EventEntry[]
  /** The place of an event by id, -1 for none. */
  placeOf(id: number): number
  starts: Float64Array
  ends: Float64Array
}

/** Ids spread wider than this many per event are looked up in a Map rather than an array indexed by id. */
const DENSE_SPREAD = 4

export function startColumns(byStart: readonly EventEntry[]): StartColumns {
  const starts = Float64Array.from(byStart, (e) => e.start)
  const ends = Float64Array.from(byStart, (e) => e.end)
  return { byStart, placeOf: placeLookup(byStart), starts, ends }
}

/** Ids to places: an Int32Array indexed by id when ids are dense (as assigned ids are), a Map otherwise. */
function placeLookup(byStart: readonly EventEntry[]): (id: number) => number {
  let [least, most] = [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]
  for (const e of byStart) [least, most] = [Math.min(least, e.id), Math.max(most, e.id)]
  const spread = most - least + 1
  if (byStart.length === 0 || !(spread <= DENSE_SPREAD * byStart.length + 1024)) {
    const places = new Map<number, number>(byStart.map((e, i) => [e.id, i]))
    return (id) => places.get(id) ?? -1
  }
  const places = new Int32Array(spread).fill(-1)
  byStart.forEach((e, i) => {
    places[e.id - least] = i
  })
  return (id) => (id >= least && id <= most ? places[id - least]! : -1)
}

/** A bitset over places: the events `admits`. */
export function placeBits(byStart: readonly EventEntry[], admits: (e: EventEntry) => boolean): Int32Array {
  const bits = new Int32Array((byStart.length + 31) >>> 5)
  for (let at = 0; at < byStart.length; at++) if (admits(byStart[at]!)) bits[at >>> 5]! |= 1 << (at & 31)
  return bits
}

/** Closed ranges in ms, and the places a caller may list (placeBits). */
export interface PlaceFilter {
  startMin: number
  startMax: number
  endMin: number
  endMax: number
  listed: Int32Array
}

/**
 * The events whose id `ids` holds, within the ranges, listed, and (if given) that `keep` admits, in list order.
 * Each id becomes its place, tested on the columns and set in a bitset; a walk over the bitset's words yields
 * the places in order. So a set's matches are ordered by small integers, never by comparing events, and only
 * `keep` (for filters the columns do not hold) reads an event.
 */
export function idsInStartOrder(
  ids: IdSet,
  columns: StartColumns,
  f: PlaceFilter,
  keep?: (e: EventEntry) => boolean,
): EventEntry[] {
  const { starts, ends } = columns
  const { listed, startMin, startMax, endMin, endMax } = f
  const bits = new Int32Array((columns.byStart.length + 31) >>> 5)
  ids.forEach((id) => {
    const at = columns.placeOf(id)
    // As `passes` reads them: a date that is not a number fails no range.
    if (at < 0 || (listed[at >>> 5]! & (1 << (at & 31))) === 0) return
    if (starts[at]! < startMin || starts[at]! > startMax || ends[at]! < endMin || ends[at]! > endMax) return
    bits[at >>> 5]! |= 1 << (at & 31)
  })
  return inPlaceOrder(bits, columns.byStart, keep)
}

/** Events of the start index in its order (by their places, not by comparing them). */
export function entriesInStartOrder(entries: readonly EventEntry[], columns: StartColumns): EventEntry[] {
  const bits = new Int32Array((columns.byStart.length + 31) >>> 5)
  for (const e of entries) {
    const at = columns.placeOf(e.id)
    bits[at >>> 5]! |= 1 << (at & 31)
  }
  return inPlaceOrder(bits, columns.byStart)
}

/** The events at the places a bitset holds (those `keep` admits, if given), in order: a walk over its words. */
function inPlaceOrder(bits: Int32Array, byStart: readonly EventEntry[], keep?: (e: EventEntry) => boolean) {
  const out: EventEntry[] = []
  for (let word = 0; word < bits.length; word++) {
    let rest = bits[word]!
    while (rest !== 0) {
      const lowest = rest & -rest
      rest ^= lowest
      const entry = byStart[(word << 5) + 31 - Math.clz32(lowest)]!
      if (!keep || keep(entry)) out.push(entry)
    }
  }
  return out
}
