/**
 * An inverted index of words to event ids, built for what search asks of it: the ids holding a
 * word, or a word beginning with a prefix, with no score. Each distinct word is stored once (a
 * number names it), each event's words as one Uint32Array of those numbers, and each word's events
 * as one array of ids: about a quarter of the heap MiniSearch took for the same events (a Map per
 * node of its radix tree, and per word a Map per field of Maps per document), and a lookup is a
 * Map get, or a binary search in the sorted words for a prefix.
 */
export interface TermIndex {
  /** Indexes event `id` under each of `terms` (repeats count once). An id already in is replaced. */
  add(id: number, terms: Iterable<string>): void
  remove(id: number): void
  has(id: number): boolean
  /** The ids, among `within` if given, holding `term`, or with `prefix` a word beginning with it. */
  lookup(term: string, prefix: boolean, within?: ReadonlySet<number>): Set<number>
  /** Distinct words indexed, and (id, word) pairs: the index's size. */
  readonly size: { terms: number; postings: number }
}

export function createTermIndex(): TermIndex {
  const numbers = new Map<string, number>()
  const terms: string[] = []
  const postings: number[][] = []
  const termsOf = new Map<number, Uint32Array>()
  /** Numbers of the words freed by removals, for new words to take. */
  const free: number[] = []
  /**
   * Word numbers in the words' order (UTF-16 code units, as startsWith compares). Sorted on the first
   * lookup after a build, then kept in order one word at a time.
   */
  let order: number[] = []
  let inOrder = true
  let pairs = 0
  /** Where `term` is, or would go, in `order`. */
  const position = (term: string) => {
    let low = 0
    let high = order.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (terms[order[middle]!]! < term) low = middle + 1
      else high = middle
    }
    return low
  }

  const numberOf = (term: string) => {
    const known = numbers.get(term)
    if (known !== undefined) return known
    const number = free.pop() ?? terms.length
    terms[number] = term
    postings[number] = []
    numbers.set(term, number)
    if (inOrder) order.splice(position(term), 0, number)
    return number
  }
  const drop = (number: number, id: number) => {
    const ids = postings[number]!
    const at = ids.indexOf(id)
    ids[at] = ids[ids.length - 1]!
    ids.pop()
    if (ids.length > 0) return
    if (inOrder) order.splice(position(terms[number]!), 1)
    numbers.delete(terms[number]!)
    free.push(number)
  }
  /** The word numbers beginning with `prefix`: a run of the sorted words. */
  const withPrefix = (prefix: string) => {
    if (!inOrder) {
      order = [...numbers.values()].sort((a, b) => compare(terms[a]!, terms[b]!))
      inOrder = true
    }
    const found: number[] = []
    for (let at = position(prefix); at < order.length && terms[order[at]!]!.startsWith(prefix); at++)
      found.push(order[at]!)
    return found
  }
  const index: TermIndex = {
    add(id, words) {
      // A bulk build adds words unordered, and sorts them once on the first prefix lookup.
      if (termsOf.size === 0) inOrder = false
      index.remove(id)
      const mine = Uint32Array.from(new Set(words), numberOf)
      for (const number of mine) postings[number]!.push(id)
      termsOf.set(id, mine)
      pairs += mine.length
    },
    remove(id) {
      const mine = termsOf.get(id)
      if (!mine) return
      for (const number of mine) drop(number, id)
      termsOf.delete(id)
      pairs -= mine.length
    },
    has: (id) => termsOf.has(id),
    lookup(term, prefix, within) {
      const found = new Set<number>()
      const exact = numbers.get(term)
      for (const number of prefix ? withPrefix(term) : exact === undefined ? [] : [exact])
        for (const id of postings[number]!) if (!within || within.has(id)) found.add(id)
      return found
    },
    get size() {
      return { terms: numbers.size, postings: pairs }
    },
  }
  return index
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
