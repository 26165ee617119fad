import type { IdSet } from '../context/indexes.ts'

/** An IdSet in typed memory, and what it costs: its typed array and about OVERHEAD bytes of objects. */
export interface CompactIds extends IdSet {
  readonly bytes: number
}

const OVERHEAD = 128

/**
 * Ids held in typed memory: a bitset over their span when that is smaller than a sorted list, else the sorted
 * list (8 bytes an id). Either is a few bytes an id at most, outside the JavaScript heap, where a `Set` costs
 * some 20 bytes an id on it: a search's matches are kept this way (`search.ts`), and a common word matches most
 * of the calendar.
 */
export function compactIds(ids: readonly number[]): CompactIds {
  const sorted = Float64Array.from(ids).sort()
  let size = 0
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[size++] = sorted[i]!
  const unique = sorted.subarray(0, size)
  if (size === 0) return new SortedIds(unique)
  const span = unique[size - 1]! - unique[0]! + 1
  return span / 8 < size * 8 && span < 2 ** 31 ? new BitIds(unique) : new SortedIds(unique.slice())
}

class BitIds implements CompactIds {
  readonly size: number
  private readonly base: number
  private readonly span: number
  private readonly bits: Int32Array
  constructor(sorted: Float64Array) {
    this.size = sorted.length
    this.base = sorted[0]!
    this.span = sorted[sorted.length - 1]! - this.base + 1
    this.bits = new Int32Array((this.span + 31) >>> 5)
    for (const id of sorted) {
      const at = id - this.base
      this.bits[at >>> 5]! |= 1 << (at & 31)
    }
  }
  get bytes(): number {
    return this.bits.byteLength + OVERHEAD
  }
  has(id: number): boolean {
    const at = id - this.base
    return at >= 0 && at < this.span && (this.bits[at >>> 5]! & (1 << (at & 31))) !== 0
  }
  forEach(visit: (id: number) => void): void {
    const bits = this.bits
    for (let word = 0; word < bits.length; word++) {
      let rest = bits[word]!
      while (rest !== 0) {
        const lowest = rest & -rest
        rest ^= lowest
        visit(this.base + (word << 5) + 31 - Math.clz32(lowest))
      }
    }
  }
  [Symbol.iterator](): Iterator<number> {
    return listed(this)
  }
}

class SortedIds implements CompactIds {
  constructor(private readonly ids: Float64Array) {}
  get size(): number {
    return this.ids.length
  }
  get bytes(): number {
    return this.ids.byteLength + OVERHEAD
  }
  has(id: number): boolean {
    const ids = this.ids
    let [low, high] = [0, ids.length]
    while (low < high) {
      const mid = (low + high) >>> 1
      if (ids[mid]! < id) low = mid + 1
      else high = mid
    }
    return low < ids.length && ids[low] === id
  }
  forEach(visit: (id: number) => void): void {
    for (const id of this.ids) visit(id)
  }
  [Symbol.iterator](): Iterator<number> {
    return this.ids[Symbol.iterator]()
  }
}

/** The ids of a set in a list, for spreading and `for … of` (the filters walk with `forEach`). */
function listed(set: IdSet): Iterator<number> {
  const ids: number[] = []
  set.forEach((id) => {
    ids.push(id)
  })
  return ids[Symbol.iterator]()
}
