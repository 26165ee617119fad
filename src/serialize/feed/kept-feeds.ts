import type { KeptFeed, KeptFeeds } from '../../context/caches.ts'

// Finished feeds, for the requests that ask for one again before anything changes: a 10,000-event feed is too
// large for the kept answers (src/http/answer-cache.ts takes none past 4 MB), and putting its 10,000 kept
// VEVENTs together again costs some 80 ms.

/** At most this many feeds and bytes; all of them go when the store changes. */
export const KEPT_FEEDS_BOUNDS = { entries: 16, bytes: 32 * 1024 * 1024 } as const

export function createKeptFeeds(bounds: { entries: number; bytes: number } = KEPT_FEEDS_BOUNDS): KeptFeeds {
  const feeds = new Map<string, { feed: KeptFeed; bytes: number }>()
  let version = -1
  let bytes = 0
  const size = (feed: KeptFeed) => feed.parts.reduce((sum, part) => sum + part.byteLength, 0)
  return {
    find(at, key) {
      const found = at === version ? feeds.get(key) : undefined
      if (!found) return undefined
      feeds.delete(key)
      feeds.set(key, found)
      return found.feed
    },
    keep(at, key, feed) {
      if (at !== version) {
        feeds.clear()
        bytes = 0
        version = at
      }
      const cost = size(feed)
      if (cost > bounds.bytes / 2 || feeds.has(key)) return
      for (const [oldest, old] of feeds) {
        if (feeds.size < bounds.entries && bytes + cost <= bounds.bytes) break
        feeds.delete(oldest)
        bytes -= old.bytes
      }
      feeds.set(key, { feed, bytes: cost })
      bytes += cost
    },
    get bytes() {
      return bytes
    },
  }
}
