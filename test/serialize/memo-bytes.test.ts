import { describe, expect, it } from 'vitest'
import type { ContentRecord } from '../../src/content/store.ts'
import { HOT_MS, HOT_SERVES, keptAnswer } from '../../src/http/answer-reuse.ts'
import { createMemoCache } from '../../src/serialize/memo.ts'

// Memory bounds by bytes: what a cache counts is what it holds. Short JSON (under 4 KB) made with Buffer.from
// lands in a shared 8 KB slab, and keeping it keeps the slab.
const records = Array.from({ length: 400 }, (_, id) => ({ id }) as unknown as ContentRecord)
const event = (id: number) => ({ id, title: `Event ${id}`, description: 'x'.repeat(1_000 + (id % 7) * 300) })
type Json = ReturnType<typeof createMemoCache>['json']
/** As a list asks for an event's JSON: the kept memo, else the built value kept. */
const jsonOf = (json: Json, record: ContentRecord, key: string, build: () => unknown) =>
  json.find(record, key) ?? json.keep(record, key, build())

describe('the JSON memo', () => {
  it('keeps each record’s JSON in memory of its own, and its bytes, keys included, within its bound', () => {
    const limit = 256 * 1024
    const json = createMemoCache(limit).json
    const kept = records.map((record) => jsonOf(json, record, 'en', () => event(record.id)))
    expect(json.bytes).toBeLessThanOrEqual(limit)
    expect(json.size).toBeGreaterThan(100)
    expect(json.size).toBeLessThan(records.length)
    // Its memory is the bytes after a comma (as a list writes them), and nothing more.
    for (const memo of kept) {
      expect(memo.listed!.buffer.byteLength).toBe(memo.bytes.length + 1)
      expect(memo.bytes.buffer).toBe(memo.listed!.buffer)
      expect(memo.listed!.toString()).toBe(`,${memo.bytes.toString()}`)
    }
    // The most recent are kept (a hit builds nothing), the oldest were dropped (built again).
    let built = 0
    jsonOf(json, records.at(-1)!, 'en', () => built++)
    jsonOf(json, records[0]!, 'en', () => built++)
    expect(built).toBe(1)
  })
})

describe('the JSON memo’s keep', () => {
  it('keeps what a caller that found nothing built, and find then gives that memo', () => {
    const json = createMemoCache().json
    expect(json.find(records[0]!, 'en')).toBeUndefined()
    const kept = json.keep(records[0]!, 'en', { id: 0, title: 'Ünïcode “quotes”' })
    expect(kept.bytes.toString()).toBe('{"id":0,"title":"Ünïcode “quotes”"}')
    expect(kept.listed!.toString()).toBe(`,${kept.bytes.toString()}`)
    expect(json.find(records[0]!, 'en')).toBe(kept)
    // Another key of the same record, and another record under the same key, are kept apart.
    expect(json.find(records[0]!, 'ms')).toBeUndefined()
    expect(json.find(records[1]!, 'en')).toBeUndefined()
    expect(json.size).toBe(1)
  })
})

describe('the JSON memo’s order', () => {
  it('spares a memo used since it was kept, drops the oldest unused, and keeps each key of a record apart', () => {
    const one = createMemoCache().json
    jsonOf(one, records[0]!, 'en', () => ({ text: 'x'.repeat(1000) }))
    // Room for ten memos of this size.
    const json = createMemoCache(one.bytes * 10 + 10).json
    const built: string[] = []
    const get = (id: number, key = 'en') =>
      jsonOf(json, records[id]!, key, () => {
        built.push(`${id} ${key}`)
        return { text: 'x'.repeat(1000) }
      })
    for (let id = 0; id < 10; id++) get(id)
    expect(json.size).toBe(10)
    get(0) // the oldest: used again, it is spared at its turn and queued again
    get(9) // the newest: used too, and far from its turn
    for (let id = 10; id < 13; id++) get(id)
    built.length = 0
    for (const id of [0, 1, 2, 3, 4]) get(id)
    // 1, 2 and 3 were dropped for 10, 11 and 12, and 4 for 1 again; 0 had been spared and is found.
    expect(built).toEqual(['1 en', '2 en', '3 en', '4 en'])
    get(5, 'ms')
    expect(built.at(-1)).toBe('5 ms')
    expect(json.bytes).toBeLessThanOrEqual(one.bytes * 10 + 10)
  })
})

describe('a kept answer', () => {
  // Each part of a body in memory of its own (a memo's JSON holds one byte more: the comma before it).
  const parts = (body: Uint8Array | readonly Uint8Array[]) => (body instanceof Uint8Array ? [body] : body)
  const owned = (body: Uint8Array | readonly Uint8Array[]) =>
    parts(body).every((part) => part.buffer.byteLength <= part.byteLength + 1)

  it('holds its body in memory of its own, however short', () => {
    const life = { from: 0, until: Infinity }
    const out = { status: 200, headers: { 'Content-Type': 'application/json' }, etag: '"e"' }
    const short = keptAnswer({ ...out, body: '{"events":[]}' }, life)
    expect(owned(short.body)).toBe(true)
    const slice = keptAnswer({ ...out, body: Buffer.from('{"events":[],"total":0}') }, life)
    expect(owned(slice.body)).toBe(true)
    expect(Buffer.concat(parts(slice.body)).toString()).toBe('{"events":[],"total":0}')
  })

  it('holds a body in parts as parts, each in memory of its own, a part that already is one not copied', () => {
    const life = { from: 0, until: Infinity }
    const out = { status: 200, headers: { 'Content-Type': 'application/json' }, etag: '"e"' }
    const own = Buffer.allocUnsafeSlow(3)
    own.write('1,2')
    const kept = keptAnswer({ ...out, body: [Buffer.from('['), own, Buffer.from(']')] }, life)
    expect(owned(kept.body)).toBe(true)
    expect(parts(kept.body)[1]).toBe(own)
    expect(Buffer.concat(parts(kept.body)).toString()).toBe('[1,2]')
  })

  it('holds a memo’s JSON (a view after its comma) as it is, not a copy', () => {
    const life = { from: 0, until: Infinity }
    const out = { status: 200, headers: { 'Content-Type': 'application/json' }, etag: '"e"' }
    const memo = createMemoCache().json.keep(records[0]!, 'en', { id: 1 })
    const kept = keptAnswer({ ...out, body: [Buffer.from('['), memo.bytes, memo.listed!, Buffer.from(']')] }, life)
    expect(parts(kept.body)[1]).toBe(memo.bytes)
    expect(parts(kept.body)[2]).toBe(memo.listed)
    expect(Buffer.concat(parts(kept.body)).toString()).toBe('[{"id":1},{"id":1}]')
  })

  it('is written in parts until served HOT_SERVES times within HOT_MS, then joined into one buffer of its own', () => {
    const life = { from: 0, until: Infinity }
    const out = { status: 200, headers: { 'Content-Type': 'application/json' }, etag: '"e"' }
    const memo = createMemoCache().json.keep(records[0]!, 'en', { id: 1 })
    const body = [Buffer.from('['), memo.bytes, memo.listed!, Buffer.from(']')]
    const kept = keptAnswer({ ...out, body }, life)
    // One serve short in each of a few windows (a varied mix meeting it now and then): the memo's parts, as they are.
    for (const window of [0, HOT_MS, 3 * HOT_MS])
      for (let i = 0; i < HOT_SERVES - 1; i++) expect(kept.served(window + i)).toEqual(body)
    expect(parts(kept.body)[1]).toBe(memo.bytes)
    // HOT_SERVES within one window: hot, joined at the last of them.
    for (let i = 0; i < HOT_SERVES - 1; i++) expect(kept.served(5 * HOT_MS + i)).toEqual(body)
    const joined = kept.served(6 * HOT_MS - 1) as Uint8Array
    expect(joined).toBeInstanceOf(Uint8Array)
    expect(Buffer.from(joined).toString()).toBe('[{"id":1},{"id":1}]')
    // Short, and still not a slice of Node's shared pool: the answer would keep the whole pool alive.
    expect(joined.buffer.byteLength).toBe(joined.byteLength)
    expect(kept.body).toBe(joined)
    expect(kept.served(10 * HOT_MS)).toBe(joined)
    // A clock that steps back opens a new window: serves before it do not count in the one it left.
    const stepped = keptAnswer({ ...out, body }, life)
    for (let i = 0; i < HOT_SERVES - 1; i++) stepped.served(3 * HOT_MS + i)
    for (let i = 0; i < HOT_SERVES - 1; i++) expect(stepped.served(HOT_MS + i)).toEqual(body)
    // One buffer already: served as it is.
    const single = keptAnswer({ ...out, body: '{"id":1}' }, life)
    const bytes = single.body
    expect(single.served(0)).toBe(bytes)
    expect(single.served(1)).toBe(bytes)
  })
})
