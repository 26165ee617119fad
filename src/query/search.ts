import MiniSearch from 'minisearch'
import type { ContentRecord, Store } from '../content/store.ts'
import type { Lang } from '../languages.ts'

/** Full-text search over one language's event text: title, excerpt and description. */
export interface SearchIndex {
  /** Ids of events where every word matches (the last word also as a prefix). */
  match(query: string): Set<number>
  update(before: ContentRecord | undefined, after: ContentRecord | undefined): void
  /** Resolves when every event is indexed (a background build yields between chunks). */
  ready: Promise<void>
}

const FIELDS = ['title', 'excerpt', 'description']
const CHUNK = 250
const MATCHES_KEPT = 512

/**
 * Builds a language's index over every event readable in it (a fallback record by its source
 * text). `background` indexes in chunks between other work, so a server answers while it builds;
 * until it is done, a search finishes the build first.
 */
export function createSearchIndex(store: Store, lang: Lang, background = false): SearchIndex {
  const words = segmenter(lang)
  const mini = new MiniSearch<{ id: number }>({ fields: FIELDS, storeFields: [], tokenize: words, processTerm: (term) => term.toLowerCase() })
  // Scoring thousands of hits costs milliseconds; the same words come back often, and change only with the events.
  const matches = new Map<string, Set<number>>()
  const toDocument = (record: ContentRecord) => {
    const fields = store.fieldsIn(record, lang)
    if (!fields) return undefined
    return { id: record.id, title: String(fields.title ?? ''), excerpt: String(fields.excerpt ?? ''), description: stripMarkdown(fields.description) }
  }
  const pending = [...store.list('events')]
  /** Adds the next events, skipping any an update has already put in (or that changed since). */
  const addChunk = (size: number) => {
    for (const record of pending.splice(0, size)) {
      if (mini.has(record.id) || store.get('events', record.id) !== record) continue
      const document = toDocument(record)
      if (document) mini.add(document)
    }
  }
  const ready = background
    ? (async () => {
        while (pending.length > 0) {
          addChunk(CHUNK)
          await new Promise((resolve) => setImmediate(resolve))
        }
      })()
    : Promise.resolve(addChunk(pending.length))
  return {
    ready,
    match(query) {
      if (pending.length > 0) addChunk(pending.length)
      const terms = words(query).map((term) => term.toLowerCase())
      const key = terms.join(' ')
      let found = matches.get(key)
      if (!found) {
        const results = terms.length === 0 ? [] : mini.search(key, { combineWith: 'AND', prefix: (_term, i, all) => i === all.length - 1, tokenize: (text) => text.split(' ') })
        found = new Set(results.map((result) => result.id as number))
        if (matches.size >= MATCHES_KEPT) matches.delete(matches.keys().next().value!)
        matches.set(key, found)
      }
      return found
    },
    update(before, after) {
      matches.clear()
      if (before && mini.has(before.id)) mini.discard(before.id)
      const document = after ? toDocument(after) : undefined
      if (document) mini.add(document)
    },
  }
}

/**
 * Words for indexing and for queries. Chinese is written without spaces, so it goes through the
 * platform's dictionary-based word segmenter (ICU); other scripts split on spaces and punctuation.
 */
function segmenter(lang: Lang): (text: string) => string[] {
  if (lang === 'zh-hans') {
    const segments = new Intl.Segmenter('zh-Hans', { granularity: 'word' })
    return (text) => [...segments.segment(text)].filter((s) => s.isWordLike).map((s) => s.segment)
  }
  return (text) => text.split(/[\s\p{P}\p{S}]+/u).filter(Boolean)
}

/** Markdown syntax is not text anyone searches for. */
function stripMarkdown(markdown: string): string {
  return markdown.replace(/<[^<>]+>/g, ' ').replace(/[*_`#>[\]()!|~-]+/g, ' ')
}
