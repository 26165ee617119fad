import type { Caches } from '../context/caches.ts'
import { createMarkdownRenderer } from './markdown.ts'
import { createKeptFeeds } from './feed/kept-feeds.ts'
import { createMemoCache, FEED_LIMIT_BYTES } from './memo.ts'

/** Fresh, empty caches for one app. */
export function createCaches(): Caches {
  return {
    memo: createMemoCache(),
    feed: createMemoCache(FEED_LIMIT_BYTES),
    feeds: createKeptFeeds(),
    markdown: createMarkdownRenderer(),
  }
}
