import SearchableMap from 'minisearch/SearchableMap'

/**
 * The events holding a word: one id alone as a number (most words of a calendar are in one event), else the
 * ids in ascending order. A plain array of small integers costs 8 bytes an id on the heap.
 */
type Posting = number | number[]

/**
 * Which events hold which words, for search: MiniSearch's radix tree (`SearchableMap`, which MiniSearch keeps
 * its own index in) from each word to the ids of the events holding it.
 *
 * MiniSearch's document index keeps, for each word, a Map per field from each document to the word's count in
 * it, and each document's field lengths: what BM25 scores with. A list of events is ordered by date, never by
 * score, so search only ever asked it which events hold a word or a word it begins; at 10,000 events those
 * tables were ~30 MB of the heap for one language, the same words and ids here ~7 MB.
 */
export class TermPostings {
  private readonly words = new SearchableMap<Posting>()

  /** Notes that event `id` holds each of `terms` (distinct, as `terms` of one event must be). */
  add(id: number, terms: Iterable<string>): void {
    for (const term of terms) {
      const posting = this.words.get(term)
      if (posting === undefined) this.words.set(term, id)
      else if (typeof posting === 'number') {
        if (posting !== id) this.words.set(term, posting < id ? [posting, id] : [id, posting])
      } else insert(posting, id)
    }
  }

  /** Forgets that event `id` holds each of `terms`: the terms it was added with. */
  remove(id: number, terms: Iterable<string>): void {
    for (const term of terms) {
      const posting = this.words.get(term)
      if (posting === undefined) continue
      if (typeof posting === 'number') {
        if (posting === id) this.words.delete(term)
        continue
      }
      const at = indexOf(posting, id)
      if (at < 0) continue
      posting.splice(at, 1)
      if (posting.length === 1) this.words.set(term, posting[0]!)
    }
  }

  /**
   * Calls `visit` with each event holding `term` or, with `prefix`, a word `term` begins; an event holding
   * several such words is visited once per word.
   */
  forEachHolding(term: string, prefix: boolean, visit: (id: number) => void): void {
    if (!prefix) {
      each(this.words.get(term), visit)
      return
    }
    for (const posting of this.words.atPrefix(term).values()) each(posting, visit)
  }

  /**
   * Gives every list of ids the length it holds: a list grown an id at a time has room for more, up to half
   * again its length. Called once a build is done.
   */
  trim(): void {
    const grown: [string, number[]][] = []
    for (const [term, posting] of this.words) if (typeof posting !== 'number') grown.push([term, posting])
    for (const [term, ids] of grown) this.words.set(term, ids.slice())
  }

  /** How many distinct words are held (for tests and measures). */
  get size(): number {
    return this.words.size
  }
}

function each(posting: Posting | undefined, visit: (id: number) => void): void {
  if (posting === undefined) return
  if (typeof posting === 'number') visit(posting)
  else for (let i = 0; i < posting.length; i++) visit(posting[i]!)
}

/** Puts `id` in its place in the ascending `ids` (an index builds in id order, so most land at the end). */
function insert(ids: number[], id: number): void {
  const last = ids[ids.length - 1]!
  if (id > last) {
    ids.push(id)
    return
  }
  const at = lowerBound(ids, id)
  if (ids[at] !== id) ids.splice(at, 0, id)
}

function indexOf(ids: number[], id: number): number {
  const at = lowerBound(ids, id)
  return ids[at] === id ? at : -1
}

/** The first place in ascending `ids` whose id is not below `id`. */
function lowerBound(ids: number[], id: number): number {
  let low = 0
  let high = ids.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (ids[middle]! < id) low = middle + 1
    else high = middle
  }
  return low
}
