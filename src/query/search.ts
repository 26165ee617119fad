import type { ContentRecord, Store } from '../content/store.ts'
import { invalidParam } from '../errors.ts'
import type { Lang } from '../languages.ts'
import type { IdSet, SearchIndex } from '../context/indexes.ts'
import { type CompactIds, compactIds } from './id-set.ts'
import { TermPostings } from './term-postings.ts'

/**
 * How long a background build indexes before it lets other work run, in ms. A count of events
 * would not do: 250 Chinese events (ICU segmentation) held the loop 140 ms, 250 English ones 30.
 */
const CHUNK_MS = 10
/**
 * The searches whose matches are kept, by count and by the bytes they hold together. Matches are kept compact
 * (`compactIds`: a bitset over their ids' span, or a sorted list), outside the JavaScript heap: a common word's
 * matches at 10,000 events are a 1.25 KB bitset, where a Set of them was some 200 KB. A search whose matches
 * alone pass the bytes is answered but not kept.
 */
export const MATCHES_KEPT: { searches: number; bytes: number } = { searches: 512, bytes: 4 * 1024 * 1024 }
/**
 * The longest search taken (the reference has no limit): every word of an AND search only narrows
 * it, and each costs a lookup. A longer one is 400 rest_invalid_param, not silently cut, so that
 * no answer claims to match words it did not look for.
 */
export const SEARCH_LIMITS = { words: 20, characters: 200 } as const
const TOO_LONG = `search takes at most ${SEARCH_LIMITS.words} words and ${SEARCH_LIMITS.characters} characters.`

/** Refuses a search longer than SEARCH_LIMITS (400 rest_invalid_param naming `search`). */
export function checkSearch(search: string, words = search.split(/[\s\p{P}\p{S}]+/u).filter(Boolean)): void {
  if (search.length > SEARCH_LIMITS.characters || words.length > SEARCH_LIMITS.words)
    throw invalidParam('search', TOO_LONG)
}

/**
 * Builds a language's index over every event readable in it (a fallback record by its source
 * text). `background` indexes in chunks between other work, so a server answers while it builds;
 * until it is done, a search finishes the build first.
 */
export function createSearchIndex(
  store: Store,
  lang: Lang,
  background = false,
  bounds: typeof MATCHES_KEPT = MATCHES_KEPT,
): SearchIndex {
  const words = segmenter(lang)
  const postings = new TermPostings()
  // The same words come back often, and their events change only with a write.
  const matches = new Map<string, { found: CompactIds; cost: number }>()
  /** The title, excerpt and description (a line apart, so no word spans two), or undefined without a file. */
  const searchableText = (record: ContentRecord) => {
    const fields = store.fieldsIn(record, lang)
    if (!fields) return undefined
    // Each field cut to INDEXED_DESCRIPTION: a content file's 4 MB excerpt (or title) in Chinese took 11.7 s to
    // index at the start and 20.6 s on every change of its event, on the event loop.
    const title = String(fields.title ?? '').slice(0, INDEXED_DESCRIPTION)
    // A protected event shows its title alone (docs/compatibility.md §21), so its excerpt and description are
    // not searchable.
    if (record.source.data.password) return title
    const excerpt = String(fields.excerpt ?? '').slice(0, INDEXED_DESCRIPTION)
    const description = stripMarkdown(String(fields.description ?? '').slice(0, INDEXED_DESCRIPTION))
    return `${title}\n${excerpt}\n${description}`
  }
  // Each event as it was indexed, so that its words can be taken out again exactly as they went in.
  const indexed = new Map<number, ContentRecord>()
  const index = (record: ContentRecord) => {
    const text = searchableText(record)
    if (text === undefined) return
    postings.add(record.id, termsOf(text))
    indexed.set(record.id, record)
  }
  const unindex = (id: number) => {
    const record = indexed.get(id)
    if (record === undefined) return
    postings.remove(id, termsOf(searchableText(record) ?? ''))
    indexed.delete(id)
  }
  /** Distinct lowercase words of a text: an event holds a word or not, how often does not matter. */
  const termsOf = (text: string) => new Set(words(text).map((word) => word.toLowerCase()))
  // Emptied once the build is done: it would keep every event's record of that time, edited since or not.
  let pending = [...store.events()]
  let next = 0
  // Events an update has settled while the build was under way: the build leaves them as the update did.
  const settled = new Set<number>()
  /**
   * Adds the next events until `until` (a performance.now() time), skipping any an update has already put in,
   * removed or changed since.
   */
  const addUntil = (until: number) => {
    while (next < pending.length && performance.now() < until) {
      const record = pending[next++]!
      if (settled.has(record.id) || indexed.has(record.id) || store.get('events', record.id) !== record) continue
      index(record)
    }
    if (next < pending.length) return
    if (pending.length > 0) postings.trim()
    pending = []
    next = 0
    settled.clear()
  }
  let keptBytes = 0
  const keep = (key: string, found: CompactIds) => {
    const cost = found.bytes + key.length * 2
    if (cost > bounds.bytes) return
    matches.set(key, { found, cost })
    keptBytes += cost
    for (const [oldest, old] of matches) {
      if (matches.size <= bounds.searches && keptBytes <= bounds.bytes) break
      matches.delete(oldest)
      keptBytes -= old.cost
    }
  }
  const ready = background
    ? (async () => {
        while (next < pending.length) {
          addUntil(performance.now() + CHUNK_MS)
          await new Promise((resolve) => setImmediate(resolve))
        }
      })()
    : Promise.resolve(addUntil(Infinity))
  return {
    ready,
    match(query) {
      if (next < pending.length) addUntil(Infinity)
      checkSearch(query, [])
      const terms = words(query).map((term) => term.toLowerCase())
      checkSearch(query, terms)
      const key = terms.join(' ')
      const kept = matches.get(key)
      if (kept) return kept.found
      const found = matchAll(postings, terms)
      keep(key, found)
      return found
    },
    get kept() {
      return { searches: matches.size, bytes: keptBytes }
    },
    update(before, after) {
      matches.clear()
      keptBytes = 0
      for (const record of [before, after]) {
        if (record && next < pending.length) settled.add(record.id)
        if (record) unindex(record.id)
      }
      if (after) index(after)
    },
  }
}

/**
 * Events holding every term, the last also as a prefix. A repeated term, or a last one that an
 * earlier term already begins with, asks nothing new and is not looked up again. Terms are looked
 * up one at a time, each only among the events the ones before it matched (an AND), and once
 * nothing is left the search stops.
 */
function matchAll(postings: TermPostings, terms: string[]): CompactIds {
  const last = terms[terms.length - 1]
  const steps = [...new Set(terms.slice(0, -1))].map((term) => ({ term, prefix: false }))
  if (last !== undefined && !steps.some(({ term }) => term.startsWith(last))) steps.push({ term: last, prefix: true })
  let found: CompactIds | undefined
  for (const { term, prefix } of steps) {
    found = termMatches(postings, term, prefix, found)
    if (found.size === 0) break
  }
  return found ?? compactIds([])
}

/**
 * The events, among `within` (all if not given), holding `term` (or, with `prefix`, a word it begins): one pass
 * over the ids of the words found, no scores (lists are ordered by date).
 */
function termMatches(postings: TermPostings, term: string, prefix: boolean, within?: IdSet): CompactIds {
  // Ids as met (an event once per word it holds that the term begins), made a compact set once.
  const found: number[] = []
  postings.forEachHolding(term, prefix, (id) => {
    if (!within || within.has(id)) found.push(id)
  })
  return compactIds(found)
}

/**
 * Words for indexing and for queries. Chinese is written without spaces, so it goes through the
 * platform's dictionary-based word segmenter (ICU); other scripts split on spaces and punctuation.
 */
function segmenter(lang: Lang): (text: string) => string[] {
  if (lang === 'zh-hans') {
    const segments = new Intl.Segmenter('zh-Hans', { granularity: 'word' })
    // Each segment carries a copy of the text it was cut from: a long text is cut into short
    // pieces first (at punctuation and spaces, which are no part of a word), or the copies of a
    // 900 KB description exhaust the heap.
    // Pieces repeat (a sentence of the excerpt in the description, a venue's directions in every
    // event there), and ICU segmentation is most of a Chinese build: a piece's words are kept, the
    // oldest going first past SEGMENTED_KEPT.
    const kept = new Map<string, string[]>()
    const wordsOf = (piece: string) => {
      const known = kept.get(piece)
      if (known) return known
      const found: string[] = []
      for (const segment of segments.segment(piece)) if (segment.isWordLike) found.push(segment.segment)
      if (kept.size >= SEGMENTED_KEPT) kept.delete(kept.keys().next().value!)
      kept.set(piece, found)
      return found
    }
    return (text) => text.split(/[\s\p{P}\p{S}]+/u).flatMap((piece) => slices(piece, SEGMENT_PIECE).flatMap(wordsOf))
  }
  return (text) => text.split(/[\s\p{P}\p{S}]+/u).filter(Boolean)
}

const SEGMENT_PIECE = 256
/** Chinese pieces (at most SEGMENT_PIECE characters each) whose words are kept: at most a few MB. */
export const SEGMENTED_KEPT = 4_096
/**
 * How much of a title, excerpt or description search looks at, in characters. Indexing happens as a write
 * commits; cutting words out of a 900 KB description (Chinese segmentation most of all) held the event loop
 * for most of a second.
 */
export const INDEXED_DESCRIPTION = 32_768

/** A text in slices of at most `size` characters. */
function slices(text: string, size: number): string[] {
  if (text.length <= size) return [text]
  const parts: string[] = []
  for (let at = 0; at < text.length; at += size) parts.push(text.slice(at, at + size))
  return parts
}

/** Markdown syntax is not text anyone searches for. */
function stripMarkdown(markdown: string): string {
  return markdown.replace(/<[^<>]+>/g, ' ').replace(/[*_`#>[\]()!|~-]+/g, ' ')
}
