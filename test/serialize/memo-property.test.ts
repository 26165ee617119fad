import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ContentRecord } from '../../src/content/store.ts'
import { createMemoCache } from '../../src/serialize/memo.ts'

// The JSON memo (src/serialize/memo.ts: its order of use a Set) against a model of
// its policy, an array in order of use, over random sequences of lookups and keeps: every lookup finds what the model
// finds (so the same memos were dropped: the oldest, a memo found in the older half moved to the recent end, one
// larger than the whole bound never kept), with the bytes last kept for that record and key, and its size and bytes
// are the model's after every step. FC_SEED=<n> replays a failure.
const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)
const RUNS = Number(process.env.FC_RUNS ?? 200)
const RECORDS = Array.from({ length: 16 }, (_, id) => ({ id }) as unknown as ContentRecord)
const KEYS = ['en', 'ms', 'zh-hans|true']
const OVERHEAD = 256

const step = fc.record({
  record: fc.nat({ max: RECORDS.length - 1 }),
  key: fc.constantFrom(...KEYS),
  // Mostly small, so that a bound holds many memos and moves decide what goes; now and then more than a small bound
  // holds, which is served and not kept.
  size: fc.oneof({ weight: 9, arbitrary: fc.nat({ max: 600 }) }, { weight: 1, arbitrary: fc.nat({ max: 5_000 }) }),
})

/** The memo's policy, kept the plain way: an array, least recently used first. */
function modelOf(limit: number) {
  const order: { pair: string; text: string; cost: number; moved: number }[] = []
  let placed = 0
  let bytes = 0
  return {
    find(pair: string) {
      const at = order.findIndex((kept) => kept.pair === pair)
      const found = order[at]
      if (found && placed - found.moved > order.length / 2) {
        order.splice(at, 1)
        order.push(found)
        found.moved = ++placed
      }
      return found
    },
    keep(pair: string, text: string, key: string) {
      const cost = Buffer.byteLength(text) + key.length + OVERHEAD
      if (cost > limit) return
      order.push({ pair, text, cost, moved: ++placed })
      bytes += cost
      while (bytes > limit) bytes -= order.shift()!.cost
    },
    get size() {
      return order.length
    },
    get bytes() {
      return bytes
    },
  }
}

describe('the JSON memo, over random lookups', () => {
  it('finds what a model of its policy finds, with the bytes last kept, and counts what the model holds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 24 }), fc.array(step, { maxLength: 400, size: 'max' }), (room, steps) => {
        const limit = room * 2_000
        const json = createMemoCache(limit).json
        const model = modelOf(limit)
        let serial = 0
        for (const { record, key, size } of steps) {
          const pair = `${record} ${key}`
          const found = json.find(RECORDS[record]!, key)
          const expected = model.find(pair)
          expect(found?.bytes.toString(), `seed ${SEED}: ${pair}`).toBe(expected?.text)
          if (!found) {
            const value = { serial: serial++, text: 'é'.repeat(size % 7) + 'x'.repeat(size) }
            const kept = json.keep(RECORDS[record]!, key, value)
            expect(kept.listed!.toString()).toBe(`,${JSON.stringify(value)}`)
            model.keep(pair, JSON.stringify(value), key)
          }
          expect(json.size, `seed ${SEED}`).toBe(model.size)
          expect(json.bytes, `seed ${SEED}`).toBe(model.bytes)
        }
      }),
      { numRuns: RUNS, seed: SEED },
    )
  })

  it('moves a memo found in the older half to the recent end, so the next drop takes another', () => {
    // Four memos of the same cost fit (100 bytes of JSON each); the first, found once three more were kept, is then
    // the newest.
    const json = createMemoCache(4 * (100 + 'en'.length + OVERHEAD)).json
    const value = { t: 'x'.repeat(92) }
    for (const id of [0, 1, 2, 3]) json.keep(RECORDS[id]!, 'en', value)
    expect(json.find(RECORDS[0]!, 'en')).toBeDefined()
    json.keep(RECORDS[4]!, 'en', value)
    expect(json.find(RECORDS[0]!, 'en'), 'moved, so kept').toBeDefined()
    expect(json.find(RECORDS[1]!, 'en'), 'now the oldest, so dropped').toBeUndefined()
    expect(json.size).toBe(4)
  })
})
