import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ContentRecord } from '../../src/content/store.ts'
import { createMemoCache } from '../../src/serialize/memo.ts'

// The JSON memo's bookkeeping (src/serialize/memo.ts: the order of use is a list linked through its entries)
// over random sequences of lookups and keeps: what it finds is what was last kept for that record and key, a
// memo just kept is found, it never holds more than its bound, and its size and bytes are those of the memos it
// finds. FC_SEED=<n> replays a failure.
const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)
const RUNS = Number(process.env.FC_RUNS ?? 200)
const RECORDS = Array.from({ length: 8 }, (_, id) => ({ id }) as unknown as ContentRecord)
const KEYS = ['en', 'ms', 'zh-hans|true']
const OVERHEAD = 256

const step = fc.record({
  record: fc.nat({ max: RECORDS.length - 1 }),
  key: fc.constantFrom(...KEYS),
  size: fc.nat({ max: 3_000 }),
})

describe('the JSON memo, over random lookups', () => {
  it('finds only what was last kept, keeps what was just kept, and counts what it holds within its bound', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 24 }), fc.array(step, { maxLength: 120 }), (room, steps) => {
        const limit = room * 2_000
        const json = createMemoCache(limit).json
        const made = new Map<string, string>()
        let serial = 0
        for (const { record, key, size } of steps) {
          const pair = `${record} ${key}`
          const found = json.find(RECORDS[record]!, key)
          if (found) {
            expect(found.bytes.toString(), `seed ${SEED}`).toBe(made.get(pair))
            continue
          }
          const value = { serial: serial++, text: 'é'.repeat(size % 7) + 'x'.repeat(size) }
          const kept = json.keep(RECORDS[record]!, key, value)
          made.set(pair, JSON.stringify(value))
          expect(kept.listed!.toString()).toBe(`,${made.get(pair)}`)
          if (kept.bytes.length + key.length + OVERHEAD <= limit) expect(json.find(RECORDS[record]!, key)).toBe(kept)
          expect(json.bytes, `seed ${SEED}`).toBeLessThanOrEqual(limit)
        }
        // What it holds, looked up once each: its size and its bytes are what it counts.
        let size = 0
        let bytes = 0
        for (const [id, record] of RECORDS.entries())
          for (const key of KEYS) {
            const found = json.find(record, key)
            if (!found) continue
            expect(found.bytes.toString(), `seed ${SEED}`).toBe(made.get(`${id} ${key}`))
            size++
            bytes += found.bytes.length + key.length + OVERHEAD
          }
        expect(json.size, `seed ${SEED}`).toBe(size)
        expect(json.bytes, `seed ${SEED}`).toBe(bytes)
      }),
      { numRuns: RUNS, seed: SEED },
    )
  })
})
