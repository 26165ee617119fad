import { describe, expect, it } from 'vitest'
import type { ContentRecord } from '../../src/content/store.ts'
import { keepWalk, type LastWalk, WALK_RECORDS, WALKS_KEPT } from '../../src/serialize/feed/feed-segments.ts'

// What a build app keeps of the feeds it walked (src/serialize/feed/feed-segments.ts): only walks it can use again,
// within a count and a number of records.

const walk = (epoch: number, records: number, horizon = '2027-06-01 00:00:00'): LastWalk => ({
  epoch,
  horizon,
  records: new Array<ContentRecord>(records),
  segments: [],
  zoneText: Buffer.alloc(0),
})

describe('the last walks of feeds', () => {
  it('go when a walk of a later epoch or another horizon is kept', () => {
    const kept = new Map<string, LastWalk>()
    keepWalk(kept, 'en', walk(1, 10))
    keepWalk(kept, 'ms', walk(1, 10))
    keepWalk(kept, 'en', walk(2, 10))
    expect([...kept.keys()]).toEqual(['en'])
    keepWalk(kept, 'ta', walk(2, 10, '2027-07-01 00:00:00'))
    expect([...kept.keys()]).toEqual(['ta'])
  })

  it('are at most WALKS_KEPT, the oldest going first, and replace their own feed', () => {
    const kept = new Map<string, LastWalk>()
    for (let i = 0; i <= WALKS_KEPT; i++) keepWalk(kept, `feed ${i}`, walk(1, 1))
    expect(kept.size).toBe(WALKS_KEPT)
    expect(kept.has('feed 0')).toBe(false)
    keepWalk(kept, 'feed 1', walk(1, 2))
    expect(kept.size).toBe(WALKS_KEPT)
    expect([...kept.keys()].at(-1)).toBe('feed 1')
  })

  it('hold at most WALK_RECORDS records in all, and none of a feed larger than that', () => {
    const kept = new Map<string, LastWalk>()
    const third = Math.floor(WALK_RECORDS / 3)
    for (const name of ['a', 'b', 'c', 'd']) keepWalk(kept, name, walk(1, third))
    expect([...kept.keys()]).toEqual(['b', 'c', 'd'])
    keepWalk(kept, 'huge', walk(1, WALK_RECORDS + 1))
    expect([...kept.keys()]).toEqual(['b', 'c', 'd'])
  })
})
