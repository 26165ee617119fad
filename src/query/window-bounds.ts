import type { EventEntry } from '../context/indexes.ts'

// The regular events of an event window (event-window.ts) as two typed arrays in list order, their starts and
// ends: the window's binary searches and margins read them in a row instead of an entry each, scattered over the
// heap. A change moves them in place (`withBound`, `withoutBound`), in buffers that grow by an eighth when full.
// The places of an id set in the window (window-sets.ts) are searched the same way (`placeBound`).

/** Starts and ends in list order: views from the start of buffers that may hold more, room for insertions. */
export interface Bounds {
  starts: Float64Array
  ends: Float64Array
}

/** `regular`'s starts and ends, in its order. */
export function boundsOf(list: readonly EventEntry[]): Bounds {
  const starts = new Float64Array(list.length)
  const ends = new Float64Array(list.length)
  for (let i = 0; i < list.length; i++) {
    starts[i] = list[i]!.start
    ends[i] = list[i]!.end
  }
  return { starts, ends }
}

/** `bounds` without its place `at`: the rest moved down in the same buffers. */
export function withoutBound({ starts, ends }: Bounds, at: number): Bounds {
  const n = starts.length
  starts.copyWithin(at, at + 1, n)
  ends.copyWithin(at, at + 1, n)
  return { starts: starts.subarray(0, n - 1), ends: ends.subarray(0, n - 1) }
}

/** `bounds` with `entry`'s start and end at place `at`: in the same buffers while they have room, else larger ones. */
export function withBound(bounds: Bounds, at: number, entry: EventEntry): Bounds {
  const n = bounds.starts.length
  const grown = (old: Float64Array) => {
    if (old.buffer.byteLength >= (n + 1) * 8) return new Float64Array(old.buffer, 0, n + 1)
    const more = new Float64Array(n + (n >> 3) + 16)
    more.set(old)
    return more.subarray(0, n + 1)
  }
  const starts = grown(bounds.starts)
  const ends = grown(bounds.ends)
  starts.copyWithin(at + 1, at, n)
  ends.copyWithin(at + 1, at, n)
  starts[at] = entry.start
  ends[at] = entry.end
  return { starts, ends }
}

/** The first position in start order whose start is at least `instant` (`past`: above it). */
export function startBound(starts: Float64Array, instant: number, past: boolean): number {
  let low = 0
  let high = starts.length
  while (low < high) {
    const mid = (low + high) >>> 1
    const start = starts[mid]!
    if (start < instant || (past && start === instant)) low = mid + 1
    else high = mid
  }
  return low
}

/** The first index of ascending `places` holding at least `place`. */
export function placeBound(places: Int32Array, place: number): number {
  let low = 0
  let high = places.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if (places[mid]! < place) low = mid + 1
    else high = mid
  }
  return low
}
