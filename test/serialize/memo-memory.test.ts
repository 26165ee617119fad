import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import type { ContentRecord } from '../../src/content/store.ts'
import type { MemoSlot } from '../../src/context/caches.ts'
import { HOT_SERVES, keptAnswer } from '../../src/http/answer-reuse.ts'
import { createMemoCache } from '../../src/serialize/memo.ts'

// What the JSON memo holds besides its memos (src/serialize/memo.ts): nothing it dropped, and no more memory however
// many lookups find memos. Orders tried for it failed one or the other: a Set in order of use walked by one iterator
// kept from drop to drop made V8 keep every table it had made for the Set since the iterator last moved (some 31 MB a
// million moving lookups), and its queue, had a slot not been emptied as its memo left, would hold dropped memos' bytes.
setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void
const settle = () => new Promise((resolve) => setImmediate(resolve))

const records = (n: number) => Array.from({ length: n }, (_, id) => ({ id }) as unknown as ContentRecord)

describe('the JSON memo, in memory', () => {
  // A slot (an event list's index entry) that held the memo must not hold it past its drop either.
  it.each([
    ['', false],
    [', when a slot held it', true],
  ])('lets go of what it drops%s', async (_, withSlot) => {
    const json = createMemoCache(1_000_000).json
    const [first, ...others] = records(2_000)
    const slot: MemoSlot | undefined = withSlot ? { record: first!, memo: undefined } : undefined
    const dropped = new WeakRef(json.keep(first!, 'en', { text: 'x'.repeat(100_000) }, slot).bytes)
    expect(slot?.memo?.bytes).toBe(withSlot ? dropped.deref() : undefined)
    // Kept until the first drop (the oldest, the first memo), and no further.
    for (const record of others) {
      const size = json.size
      json.keep(record, 'en', { text: 'y'.repeat(1_000) })
      if (json.size === size) break
    }
    expect(json.find(first!, 'en')).toBeUndefined()
    await settle()
    gc()
    await settle()
    expect(dropped.deref(), 'a dropped memo is held').toBeUndefined()
  })

  it('holds neither a record nor the slot that holds its memo (an edited event’s, and its old index entry)', async () => {
    const json = createMemoCache(1_000_000).json
    // As an index entry does, the slot holds its record.
    const kept = (() => {
      const record = { id: 1 } as unknown as ContentRecord
      const slot: MemoSlot = { record, memo: undefined }
      json.keep(record, 'en', { t: 'x' }, slot)
      json.find(record, 'en', slot)
      return { record: new WeakRef(record), slot: new WeakRef(slot) }
    })()
    await settle()
    gc()
    await settle()
    expect(json.size, 'the memo is still kept').toBe(1)
    expect(kept.record.deref(), 'its record is held').toBeUndefined()
    expect(kept.slot.deref(), 'its slot is held').toBeUndefined()
  })

  it('lets a kept answer’s parts go once they are joined (the JSON memo keeps its own)', async () => {
    const life = { from: 0, until: Number.POSITIVE_INFINITY }
    const made = () => {
      const part = Buffer.from('x'.repeat(100_000))
      const out = { status: 200, headers: {}, etag: '"e"', body: [Buffer.from('['), part, Buffer.from(']')] }
      return { kept: keptAnswer(out, life), part: new WeakRef(part) }
    }
    const { kept, part } = made()
    expect((kept.body as Uint8Array[])[1], 'the part it watches is the answer’s').toBe(part.deref())
    kept.wire()
    for (let i = 0; i < HOT_SERVES; i++) kept.served(i)
    expect(kept.body).toBeInstanceOf(Uint8Array)
    await settle()
    gc()
    await settle()
    expect(part.deref(), 'a joined answer holds its parts').toBeUndefined()
    expect((kept.body as Uint8Array).byteLength).toBe(100_002)
  })

  it('does not grow under a million lookups, once full', () => {
    const all = records(3_000)
    // About 2,400 memos fit: the first 600 kept are dropped, and the others are then found over and over.
    const json = createMemoCache(2_400 * (100 + 'en'.length + 256)).json
    for (const record of all) json.keep(record, 'en', { t: 'x'.repeat(92) })
    const kept = all.slice(600)
    const lookups = (n: number) => {
      for (let i = 0; i < n; i++) json.find(kept[(i * 7919) % kept.length]!, 'en')
    }
    lookups(100_000)
    gc()
    const before = process.memoryUsage().heapUsed
    lookups(1_000_000)
    gc()
    const grown = process.memoryUsage().heapUsed - before
    expect(json.size).toBe(2_400)
    expect(grown, `${grown} bytes more after a million lookups`).toBeLessThan(1_000_000)
  })
})
