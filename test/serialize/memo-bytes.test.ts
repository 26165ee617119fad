import { describe, expect, it } from 'vitest'
import type { ContentRecord } from '../../src/content/store.ts'
import { keptAnswer } from '../../src/http/answer-reuse.ts'
import { createMemoCache } from '../../src/serialize/memo.ts'

// Memory bounds by bytes: what a cache counts is what it holds. Short JSON (under 4 KB) made with Buffer.from
// lands in a shared 8 KB slab, and keeping it keeps the slab.
const records = Array.from({ length: 400 }, (_, id) => ({ id }) as unknown as ContentRecord)
const event = (id: number) => ({ id, title: `Event ${id}`, description: 'x'.repeat(1_000 + (id % 7) * 300) })

describe('the JSON memo', () => {
  it('keeps each record’s JSON in memory of its own, and its bytes, keys included, within its bound', () => {
    const limit = 256 * 1024
    const json = createMemoCache(limit).json
    const kept = records.map((record) => json(record, 'en', () => event(record.id)))
    expect(json.bytes).toBeLessThanOrEqual(limit)
    expect(json.size).toBeGreaterThan(100)
    expect(json.size).toBeLessThan(records.length)
    for (const memo of kept) expect(memo.bytes.buffer.byteLength).toBe(memo.bytes.length)
    // The most recent are kept (a hit builds nothing), the oldest were dropped (built again).
    let built = 0
    json(records.at(-1)!, 'en', () => built++)
    json(records[0]!, 'en', () => built++)
    expect(built).toBe(1)
  })
})

describe('a kept answer', () => {
  it('holds its body in memory of its own, however short', () => {
    const life = { from: 0, until: Infinity }
    const out = { status: 200, headers: { 'Content-Type': 'application/json' }, etag: '"e"' }
    const short = keptAnswer({ ...out, body: '{"events":[]}' }, life)
    expect(short.body.buffer.byteLength).toBe(short.body.length)
    const slice = keptAnswer({ ...out, body: Buffer.from('{"events":[],"total":0}') }, life)
    expect(slice.body.buffer.byteLength).toBe(slice.body.length)
    expect(Buffer.from(slice.body).toString()).toBe('{"events":[],"total":0}')
  })
})
