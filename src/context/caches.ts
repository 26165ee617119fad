import type { ContentRecord } from '../content/store.ts'

// The shapes of one app's serializer caches, which every request carries (`RequestContext.caches`):
// declared here, below every layer that reads them; `src/serialize/caches.ts` builds them.

/**
 * What one app's serializers keep between requests: records' JSON and shapes, and rendered
 * Markdown. `createApp` makes one per app and hands it to every request through its context
 * (`RequestContext.caches`), so two apps in one process share no cache, and a new app starts clean.
 */
export interface Caches {
  memo: MemoCache
  /** Feeds' VEVENTs (docs/feeds.md), bounded apart from `memo`: a busy JSON API does not push them out. */
  feed: MemoCache
  /** Whole feeds, by request, for the store version they were made at. */
  feeds: KeptFeeds
  markdown: MarkdownRenderer
}

/**
 * A record's JSON as UTF-8 bytes, with their digest. Bytes, because a response assembled from
 * them is a memcpy, where a string would be encoded again on every write; the digest, so the
 * response need not be hashed again for its ETag.
 */
export interface Memo {
  bytes: Buffer
  digest: string
  /**
   * A JSON memo's bytes after a comma, as an item follows another in a list (`bytes` is a view of it): a list
   * then goes to the socket in half as many parts.
   */
  listed?: Buffer
}

/**
 * Where a caller that asks for one record's memo over and over (an event list's index entry) keeps the last one found,
 * so that the next lookup reads it there rather than the memo's map: the map's table and the record are two reads far
 * apart on the heap, at every event of every list. The memo fills it, and empties it when it drops that memo.
 */
export interface MemoSlot {
  /** The one record whose memos the slot holds: given with another record, the slot is passed over. */
  readonly record: ContentRecord
  memo: Memo | undefined
}

/**
 * The caches of one app's serializers. Records are immutable: a change makes a new record object
 * and moves the store version, so a record's JSON or shape for one language, site and shape can be
 * kept until then. Each app makes its own (`createMemoCache`): two apps in one process share none.
 */
export interface MemoCache {
  /**
   * The JSON (or text) of a record for a key, built (and digested) once and kept while it is in use; `bytes` is
   * what the kept memos cost (JSON, key and entry), held within the cache's bound, `size` how many.
   */
  json: {
    /** The memo kept under `key`, or undefined: nothing is built. `slot`, if given, is read first and filled. */
    find(record: ContentRecord, key: string, slot?: MemoSlot): Memo | undefined
    /**
     * Keeps the JSON of `value` under `key`, where `find` found nothing: a caller looks first, so a hit (a list's
     * events, nearly all kept) makes no builder and no value.
     */
    keep(record: ContentRecord, key: string, value: unknown, slot?: MemoSlot): Memo
    /** A text kept as it is (a feed's VEVENT), within the same bound: the kept one, or `build`'s. */
    text(record: ContentRecord, key: string, build: () => string): Memo
    /** The one string object kept for a key with `key`'s text: keys compared by pointer are not read. */
    canonical(key: string): string
    readonly bytes: number
    readonly size: number
  }
  /**
   * An object built from a record for a key, shared until the record or the store's version changes:
   * venues, organizers and terms are embedded in many events, and each is built once, not once per
   * event. It is frozen, so a caller that would change the shared object fails instead.
   */
  shape<T extends object>(record: ContentRecord, key: string, version: number, build: () => T): T
  /** A number for a record object, the same while it lives: a changed record is a new object, with a new number. */
  serial(record: ContentRecord): number
  /** Like `shape`, for records too many to keep each: only the most recently used stay. */
  recent<T extends object>(record: ContentRecord, key: string, build: () => T): T
}

/** A feed as sent: its parts, and its ETag. */
export interface KeptFeed {
  parts: Uint8Array[]
  etag: string
}

/** Feeds kept for one store version (`src/serialize/feed/kept-feeds.ts`), bounded by count and bytes. */
export interface KeptFeeds {
  find(version: number, key: string): KeptFeed | undefined
  keep(version: number, key: string, feed: KeptFeed): void
  readonly bytes: number
}

/** A Markdown renderer with a cache: the same text is rendered once, and a failure stays with its text. */
export interface MarkdownRenderer {
  /** Markdown to HTML (`<p>…</p>`, no trailing newline); '' stays ''. Never throws. */
  render(markdown: string): string
  /** Renders a long text on a worker thread, so that `render` finds it ready; short ones need not wait. */
  prepare(markdown: string): Promise<void>
  /**
   * Keeps a long text's HTML for one more holder (a record served now), rendered on a worker thread, until each
   * holder `release`s it: the bounded cache never lets it go. The promise, if any, resolves once it is rendered.
   */
  hold(markdown: string): Promise<void> | undefined
  /** One holder fewer; the text's HTML goes with its last. */
  release(markdown: string): void
  /** How many texts are held, and the characters of their HTML. */
  held(): { texts: number; characters: number }
}
