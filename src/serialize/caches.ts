import type { Caches } from '../context/caches.ts'
import { createMarkdownRenderer } from './markdown.ts'
import { createKeptFeeds } from './feed/kept-feeds.ts'
import { createMemoCache, FEED_LIMIT_BYTES } from './memo.ts'

/**
 * Fresh, empty caches for one app; its feeds' VEVENTs within `feedBytes` (FEED_LIMIT_BYTES unless given); long
 * Markdown rendered on a worker thread unless `markdownThread` is false.
 */
export function createCaches(feedBytes = FEED_LIMIT_BYTES, markdownThread = true): Caches {
  return {
    memo: createMemoCache(),
    feed: createMemoCache(feedBytes),
    feeds: createKeptFeeds(),
    markdown: markdownThread ? createMarkdownRenderer() : createMarkdownRenderer(undefined, undefined, null),
  }
}
