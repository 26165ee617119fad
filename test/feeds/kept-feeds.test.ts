import { describe, expect, it } from 'vitest'
import { createKeptFeeds } from '../../src/serialize/feed/kept-feeds.ts'

// Whole feeds kept for one store version: bounded by count and bytes, forgotten when the version moves.

const feed = (bytes: number, tag: string) => ({ parts: [new Uint8Array(bytes)], etag: `"${tag}"` })

describe('kept feeds', () => {
  it('finds a feed for its version only, and forgets every feed when the version moves', () => {
    const kept = createKeptFeeds({ entries: 4, bytes: 1000 })
    kept.keep(1, 'a', feed(10, 'a'))
    expect(kept.find(1, 'a')?.etag).toBe('"a"')
    expect(kept.find(2, 'a')).toBeUndefined()
    kept.keep(2, 'b', feed(10, 'b'))
    expect(kept.find(1, 'a')).toBeUndefined()
    expect(kept.find(2, 'a')).toBeUndefined()
    expect(kept.bytes).toBe(10)
  })

  it('holds at most its entries and bytes, dropping the least recently used, and no feed over half the bytes', () => {
    const kept = createKeptFeeds({ entries: 3, bytes: 1000 })
    for (const key of ['a', 'b', 'c']) kept.keep(1, key, feed(300, key))
    kept.find(1, 'a')
    kept.keep(1, 'd', feed(300, 'd'))
    expect(['a', 'b', 'c', 'd'].map((key) => kept.find(1, key) !== undefined)).toEqual([true, false, true, true])
    expect(kept.bytes).toBeLessThanOrEqual(1000)
    kept.keep(1, 'big', feed(501, 'big'))
    expect(kept.find(1, 'big')).toBeUndefined()
  })
})
