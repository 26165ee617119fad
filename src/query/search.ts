import MiniSearch from 'minisearch'
import type { ContentRecord, Store } from '../content/store.ts'
import type { Lang } from '../languages.ts'

/** Full-text search over one language's event text: title, excerpt and description. */
export interface SearchIndex {
  /** Ids of events where every word matches (the last word also as a prefix). */
  match(query: string): Set<number>
  update(before: ContentRecord | undefined, after: ContentRecord | undefined): void
}

const FIELDS = ['title', 'excerpt', 'description']

/** Builds a language's index over every event readable in it (a fallback record by its source text). */
export function createSearchIndex(store: Store, lang: Lang): SearchIndex {
  const words = segmenter(lang)
  const mini = new MiniSearch<{ id: number }>({
    fields: FIELDS,
    storeFields: [],
    tokenize: words,
    processTerm: (term) => term.toLowerCase(),
  })
  const toDocument = (record: ContentRecord) => {
    const fields = store.fieldsIn(record, lang)
    if (!fields) return undefined
    return { id: record.id, title: String(fields.title ?? ''), excerpt: String(fields.excerpt ?? ''), description: stripMarkdown(fields.description) }
  }
  mini.addAll(store.list('events').flatMap((record) => toDocument(record) ?? []))
  return {
    match(query) {
      const terms = words(query).map((term) => term.toLowerCase())
      if (terms.length === 0) return new Set()
      const results = mini.search(terms.join(' '), {
        combineWith: 'AND',
        prefix: (_term, i, all) => i === all.length - 1,
        tokenize: (text) => text.split(' '),
      })
      return new Set(results.map((result) => result.id as number))
    },
    update(before, after) {
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
  return markdown.replace(/<[^>]+>/g, ' ').replace(/[*_`#>[\]()!|~-]+/g, ' ')
}
