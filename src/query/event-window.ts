import type { EventEntry } from '../context/indexes.ts'
import { compareStart, insertionPoint } from './indexes.ts'
import { type Bounds, boundsOf, placeBound, startBound, withBound, withoutBound } from './window-bounds.ts'
import { firstPlaced, merged, rank, type Sequence, setSequence } from './window-sequence.ts'

/**
 * The events one kind of caller may list (a status set, a reader, a language), split so that a date
 * window is mostly a slice: `regular` events last between 0 and `width` ms, so in start order all but
 * a `width`-wide margin at each end of a window match it whole; the few others are `irregular`, cut by
 * their starts and checked one by one by their ends. Both in list order (compareStart).
 */
export interface EventWindow {
  regular: EventEntry[]
  irregular: EventEntry[]
  width: number
  /** Takes in one event's change (each side, when the caller may list it); false when it must be built again. */
  follow?(before: EventEntry | undefined, after: EventEntry | undefined): boolean
  /** Places in `regular` of the events of an id set, by the set's key (`window-sets.ts`): emptied on every change. */
  places?: Map<string, Int32Array>
  /**
   * `regular`'s starts and ends in its order, made by the window's first query and kept in step by `follow`: the
   * binary searches and the margins read them in a row instead of an entry each, scattered over the heap.
   */
  bounds?: Bounds
  /** `irregular`'s starts and ends, the same way: made by the first query that needs them, dropped when it changes. */
  oddBounds?: Bounds
}

/**
 * The events of one id set in a window, for `windowPage`: their places in `regular` (ascending), and the test of
 * one event (for the margins and the irregular events, which are checked one by one).
 */
export interface WindowSet {
  places: Int32Array
  has(e: EventEntry): boolean
}

/** Closed ranges in ms, as `ranges()` gives them. */
export interface Ranges {
  startMin: number
  startMax: number
  endMin: number
  endMax: number
}

/** How many events may fall outside `width`: the longest (and any ending before they start). */
const IRREGULAR_SHARE = 0.02

/** The window over `listed` (in list order); undefined when a date is not a number, which only the full walk orders. */
export function buildWindow(listed: readonly EventEntry[]): EventWindow | undefined {
  if (listed.some((e) => !Number.isFinite(e.start) || !Number.isFinite(e.end))) return undefined
  const lengths = Float64Array.from(listed, (e) => e.end - e.start).sort()
  const width = Math.max(0, lengths[Math.floor(lengths.length * (1 - IRREGULAR_SHARE))] ?? 0)
  const regular: EventEntry[] = []
  const irregular: EventEntry[] = []
  for (const e of listed) (e.end >= e.start && e.end - e.start <= width ? regular : irregular).push(e)
  return { regular, irregular, width }
}

/**
 * A window over `listed` that follows changes one event at a time (`admits`: whether the caller may list an
 * event): a removal and an insertion by binary search, in proportion to the change, not the calendar. The
 * width stays; a changed event longer than it joins the irregular ones, and once they double, it is built again.
 */
export function followingWindow(
  listed: readonly EventEntry[],
  admits: (e: EventEntry) => boolean,
): EventWindow | undefined {
  const window = buildWindow(listed)
  if (!window) return undefined
  const most = 2 * window.irregular.length + 64
  window.follow = (before, after) => {
    window.places?.clear()
    if (before && admits(before)) {
      const at = take(window.regular, before)
      if (at >= 0 && window.bounds) window.bounds = withoutBound(window.bounds, at)
      if (at < 0) {
        if (take(window.irregular, before) < 0) return false
        window.oddBounds = undefined
      }
    }
    if (!after || !admits(after)) return true
    if (!Number.isFinite(after.start) || !Number.isFinite(after.end)) return false
    if (after.end >= after.start && after.end - after.start <= window.width) {
      const at = place(window.regular, after)
      window.regular.splice(at, 0, after)
      if (window.bounds) window.bounds = withBound(window.bounds, at, after)
    } else {
      window.irregular.splice(place(window.irregular, after), 0, after)
      window.oddBounds = undefined
    }
    return window.irregular.length <= most
  }
  return window
}

/** Where an entry goes in a list in list order. */
function place(list: readonly EventEntry[], entry: EventEntry): number {
  return insertionPoint(list, entry, compareStart)
}

/** Removes `entry` (this very object) from a list in list order: where it was, or -1 when it is not there. */
function take(list: EventEntry[], entry: EventEntry): number {
  const at = place(list, entry)
  if (list[at] !== entry) return -1
  list.splice(at, 1)
  return at
}

/**
 * One page (`count` matches from `offset`) and how many match in all, without collecting every match; with `only`,
 * of the events of that set alone (its places cut to the dates by binary search, so the work follows the page).
 */
export function windowPage(w: EventWindow, r: Ranges, offset: number, count: number, only?: WindowSet) {
  const sure = regularMatches(w, r, only)
  const odd = irregularMatches(w, r, only)
  const total = sure.length + odd.length
  // Where the irregular match `j` falls in the list: its rank among the regular ones plus the matches before it,
  // rising with `j`. Only the page's are ranked (with the one after it, and those the search for the page's first
  // tries), not every match: each rank is a binary search over the regular matches.
  const placeOf = (j: number) => (j < odd.length ? j + rank(sure, odd[j]!) : total)
  let taken = offset === 0 ? 0 : firstPlaced(odd.length, offset, placeOf)
  let next = placeOf(taken)
  let i = offset - taken
  const items: EventEntry[] = []
  while (items.length < count && i + taken < total) {
    if (taken < odd.length && (i >= sure.length || next === i + taken)) {
      items.push(odd[taken]!)
      next = placeOf(++taken)
    } else items.push(sure.at(i++))
  }
  return { items, total, all: (keep?: (e: EventEntry) => boolean) => merged(sure, odd, keep) }
}

/** The irregular events within the ranges (and held by `only`): their starts cut by binary search, their ends tested. */
function irregularMatches(w: EventWindow, r: Ranges, only?: WindowSet): EventEntry[] {
  const { starts, ends } = (w.oddBounds ??= boundsOf(w.irregular))
  const found: EventEntry[] = []
  for (let i = startBound(starts, r.startMin, false); i < starts.length && starts[i]! <= r.startMax; i++) {
    if (ends[i]! >= r.endMin && ends[i]! <= r.endMax && (!only || only.has(w.irregular[i]!)))
      found.push(w.irregular[i]!)
  }
  return found
}

/**
 * The regular events within the ranges: a margin checked one by one, a slice where the start alone
 * settles it (start ≥ endMin, start + width ≤ endMax), and another margin.
 */
function regularMatches(w: EventWindow, r: Ranges, only?: WindowSet): Sequence {
  const list = w.regular
  const { starts, ends } = (w.bounds ??= boundsOf(list))
  const low = startBound(starts, Math.max(r.startMin, r.endMin - w.width), false)
  const high = Math.max(low, startBound(starts, Math.min(r.startMax, r.endMax), true))
  const coreLow = Math.min(high, Math.max(low, startBound(starts, r.endMin, false)))
  const coreHigh = Math.min(high, Math.max(coreLow, startBound(starts, r.endMax - w.width, true)))
  const before = endingIn(list, ends, r, only, low, coreLow)
  const after = endingIn(list, ends, r, only, coreHigh, high)
  if (only) return setSequence(list, only.places, [coreLow, coreHigh], before, after)
  const core = coreHigh - coreLow
  return {
    length: before.length + core + after.length,
    at: (i) =>
      i < before.length
        ? before[i]!
        : i < before.length + core
          ? list[coreLow + i - before.length]!
          : after[i - before.length - core]!,
    forEach(visit) {
      for (const e of before) visit(e)
      for (let i = coreLow; i < coreHigh; i++) visit(list[i]!)
      for (const e of after) visit(e)
    },
  }
}

/** A margin's events ending within the ranges (and held by `only`), by `ends`; outside the sequence's closures. */
function endingIn(
  list: readonly EventEntry[],
  ends: Float64Array,
  r: Ranges,
  only: WindowSet | undefined,
  from: number,
  to: number,
): EventEntry[] {
  const found: EventEntry[] = []
  if (only) {
    // The set's own places in the margin: the same events `only.has` admits there (its places are made by it), found
    // without reading an entry that is not in the set (a margin of a week's starts is a hundred events or so).
    const { places } = only
    for (let k = placeBound(places, from); k < places.length && places[k]! < to; k++) {
      const i = places[k]!
      if (ends[i]! >= r.endMin && ends[i]! <= r.endMax) found.push(list[i]!)
    }
  } else for (let i = from; i < to; i++) if (ends[i]! >= r.endMin && ends[i]! <= r.endMax) found.push(list[i]!)
  return found
}
