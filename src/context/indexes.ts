import type { EventStatus } from '../content/model/event-status.ts'
import type { ContentRecord } from '../content/store.ts'
import type { Lang } from '../languages.ts'
import type { Memo } from './caches.ts'

// The shapes of the query indexes, which every request carries (`RequestContext.indexes`): declared
// here, below every layer that reads them; `src/query/indexes.ts` and `src/query/search.ts` build them.

/**
 * A set of event ids as the list filters read it: its size, a membership test, and a walk over its ids (in no
 * promised order). A `Set<number>` is one; so are a search's kept matches (`compactIds` in `src/query/id-set.ts`).
 */
export interface IdSet {
  readonly size: number
  has(id: number): boolean
  forEach(visit: (id: number) => void): void
  [Symbol.iterator](): Iterator<number>
}

/** Full-text search over one language's event text: title, excerpt and description. */
export interface SearchIndex {
  /** Ids of events where every word matches (the last word also as a prefix). */
  match(query: string): IdSet
  update(before: ContentRecord | undefined, after: ContentRecord | undefined): void
  /** Resolves when every event is indexed (a background build yields between chunks). */
  ready: Promise<void>
  /** The searches whose matches are kept, and the bytes they hold together (both bounded). */
  readonly kept: { searches: number; bytes: number }
}

/** Everything the event filters read, computed once per record version. */
export interface EventEntry {
  record: ContentRecord
  id: number
  start: number
  end: number
  published: number
  status: string
  /** The event's status (scheduled, cancelled…: docs/compatibility.md §32), read once from its front matter. */
  eventStatus: EventStatus
  /** The author's user id (0 for none). */
  author: number
  /** Whether the event has a password, so lists blank it for callers without it. */
  protected: boolean
  hidden: boolean
  featured: boolean
  ticketed: boolean
  parent: number
  venues: number[]
  organizers: number[]
  terms: number[]
  /** Bit i set when the record has a file in LANGUAGES[i]. */
  langs: number
  /** The event's JSON memo that lists found last (the memo's own to fill and empty: `MemoSlot`). */
  memo: Memo | undefined
}

/** The kinds listed in an order of their own (`GET /venues`, `/organizers`, `/categories`, `/tags`). */
export type ListedKind = 'venues' | 'organizers' | 'categories' | 'tags'

/** Records of a listed kind in list order, kept until a record of that kind changes. */
export interface RecordOrder {
  /**
   * Venues and organizers newest publication first, then id descending; categories and tags by
   * name in `lang` (`localeCompare`), then id ascending.
   */
  ordered(kind: ListedKind, lang: Lang): readonly ContentRecord[]
  update(before: ContentRecord | undefined, after: ContentRecord | undefined): void
}

/** Indexes over the store, updated one record at a time. */
export interface Indexes {
  /** Events ordered by UTC start, then publication date, then id (docs/compatibility.md §18). */
  byStart(): readonly EventEntry[]
  /** Events ordered by UTC end, then id. */
  byEnd(): readonly EventEntry[]
  entry(id: number): EventEntry | undefined
  /** Ids of events linked to a venue, an organizer or a term. */
  linked(relation: 'venues' | 'organizers' | 'terms', id: number): ReadonlySet<number>
  /**
   * Published events assigned to a category or tag (WordPress counts direct assignments), less
   * password-protected ones: their terms are blanked, so a count must not tell them apart.
   */
  termCount(termId: number): number
  /** Venues, organizers, categories or tags in their list order (see RecordOrder). */
  ordered: RecordOrder['ordered']
  /**
   * The full-text index of one language. Built on first use, in the background (await its
   * `ready` to search without blocking other requests); languages nobody searches cost nothing.
   */
  search(lang: Lang): SearchIndex
  /** Takes in a new or changed record (`before` is its previous version, if any). */
  update(before: ContentRecord | undefined, after: ContentRecord | undefined): void
  /** Moves on every update, so results cached from the indexes can tell they are stale. */
  readonly generation: number
  /**
   * The events a query matches, found once per generation and kept (the most recent few hundred
   * queries): many clients ask the same questions, the default list above all, and the answer only
   * changes when an event does. `key` names everything the matches depend on but paging.
   */
  matches(key: string, find: () => EventEntry[]): EventEntry[]
  /**
   * A value derived from the events alone (such as the events one kind of caller may list), built
   * once and kept until an event changes; the most recent DERIVED_KEPT keys. A value with a method
   * `follow(before, after)` (the event's entries as they were and are) is told of the change instead,
   * and kept while it answers true.
   */
  derived<T>(key: string, build: () => T): T
}
