import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ContentRecord } from '../../src/content/store.ts'
import type { MemoSlot } from '../../src/context/caches.ts'
import { createMemoCache } from '../../src/serialize/memo.ts'

// The JSON memo (src/serialize/memo.ts: a second-chance queue in a ring of slots) against a model of its policy, a
// plain array in queue order, over random sequences of lookups and keeps: every lookup finds what the model finds (so
// the same memos were dropped: the first in the queue not found since it was queued, one found meanwhile queued again
// instead, one larger than the whole bound never kept), with the bytes last kept for that record and key, and its size
// and bytes are the model's after every step. Lookups and keeps go through each record's slot (as an event list's
// index entries hold them) or not, at random: a slot finds what the map finds, and after every step a slot holds
// nothing or one of its record's memos that the model still keeps. FC_SEED=<n> replays a failure.
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
  // Kept as a value's JSON (`keep`, an event's) or as a text built when nothing is found (`text`, a feed's VEVENT).
  asText: fc.boolean(),
  // No slot, the record's own (as an index entry is), or another record's, which must be passed over.
  slotOf: fc.constantFrom('none', 'own', 'other'),
})

/** The memo's policy, kept the plain way: an array in queue order, the next to go first. */
function modelOf(limit: number) {
  const queue: { pair: string; text: string; cost: number; used: boolean }[] = []
  let bytes = 0
  return {
    find(pair: string) {
      const found = queue.find((kept) => kept.pair === pair)
      if (found) found.used = true
      return found
    },
    keep(pair: string, text: string, key: string) {
      const cost = Buffer.byteLength(text) + key.length + OVERHEAD
      if (cost > limit) return
      while (bytes + cost > limit) {
        const first = queue.shift()!
        if (first.used) queue.push({ ...first, used: false })
        else bytes -= first.cost
      }
      queue.push({ pair, text, cost, used: false })
      bytes += cost
    },
    /** Whether a memo of these bytes is kept for `record` under some key (looked at, not found: nothing marked). */
    holds(record: number, text: string) {
      return queue.some((kept) => kept.pair.startsWith(`${record} `) && kept.text === text)
    },
    get size() {
      return queue.length
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
        const slots: MemoSlot[] = RECORDS.map((record) => ({ record, memo: undefined }))
        let serial = 0
        for (const { record, key, size, asText, slotOf } of steps) {
          const pair = `${record} ${key}`
          const slot = slotOf === 'none' ? undefined : slots[slotOf === 'own' ? record : (record + 1) % slots.length]
          const found = json.find(RECORDS[record]!, key, slot)
          const expected = model.find(pair)
          expect(found?.bytes.toString(), `seed ${SEED}: ${pair}`).toBe(expected?.text)
          if (!found) {
            const value = { serial: serial++, text: 'é'.repeat(size % 7) + 'x'.repeat(size) }
            if (asText) {
              const kept = json.text(RECORDS[record]!, key, () => JSON.stringify(value))
              expect(kept.bytes.toString()).toBe(JSON.stringify(value))
              expect(kept.listed).toBeUndefined()
            } else {
              const kept = json.keep(RECORDS[record]!, key, value, slot)
              expect(kept.listed!.toString()).toBe(`,${JSON.stringify(value)}`)
            }
            model.keep(pair, JSON.stringify(value), key)
          }
          expect(json.size, `seed ${SEED}`).toBe(model.size)
          expect(json.bytes, `seed ${SEED}`).toBe(model.bytes)
          for (const [i, { memo }] of slots.entries()) {
            const message = `seed ${SEED}: slot ${i} holds a memo not its record’s, or dropped`
            if (memo) expect(model.holds(i, memo.bytes.toString()), message).toBe(true)
          }
        }
      }),
      { numRuns: RUNS, seed: SEED },
    )
  })

  it('fills a slot with its record’s memo, follows the key asked, and leaves a memo another slot holds to it', () => {
    const json = createMemoCache(1_000_000).json
    const [one, two] = [RECORDS[0]!, RECORDS[1]!]
    const slot: MemoSlot = { record: one, memo: undefined }
    const en = json.keep(one, 'en', { t: 'en' }, slot)
    expect(slot.memo, 'kept through the slot').toBe(en)
    const ms = json.keep(one, 'ms', { t: 'ms' })
    expect(json.find(one, 'ms', slot), 'found in the map when the slot holds another key').toBe(ms)
    expect(slot.memo, 'and then held by the slot').toBe(ms)
    expect(json.find(one, 'en', slot)).toBe(en)
    expect(slot.memo).toBe(en)
    // A second slot of the record finds the memo, but does not take it while the first holds it: a drop empties the
    // one slot a memo names. Once the first holds another, the second may.
    const other: MemoSlot = { record: one, memo: undefined }
    expect(json.find(one, 'en', other)).toBe(en)
    expect(other.memo).toBeUndefined()
    expect(json.find(one, 'ms', slot)).toBe(ms)
    expect(json.find(one, 'en', other)).toBe(en)
    expect(other.memo).toBe(en)
    // Another record's slot is passed over: neither read nor filled.
    expect(json.find(two, 'en', slot)).toBeUndefined()
    const twos = json.keep(two, 'en', { t: 'two' }, other)
    expect(other.memo).toBe(en)
    expect(json.find(two, 'en', other)).toBe(twos)
    expect(json.find(one, 'en', other)).toBe(en)
  })

  it('empties a slot as the memo it holds is dropped, and only then', () => {
    // Two memos fit (100 bytes of JSON each). The slot held its record's first memo, then holds its second when the
    // first is dropped (which names the slot still), and is emptied when the second is.
    const json = createMemoCache(2 * (100 + 'en'.length + OVERHEAD)).json
    const value = { t: 'x'.repeat(92) }
    const slot: MemoSlot = { record: RECORDS[0]!, memo: undefined }
    json.keep(RECORDS[0]!, 'en', value, slot)
    const held = json.keep(RECORDS[0]!, 'ms', value, slot)
    json.keep(RECORDS[1]!, 'en', value)
    expect(json.find(RECORDS[0]!, 'en'), 'the first memo, dropped').toBeUndefined()
    expect(slot.memo, 'a memo it does not hold left it as it was').toBe(held)
    json.keep(RECORDS[2]!, 'en', value)
    expect(json.find(RECORDS[0]!, 'ms'), 'the memo it held, dropped').toBeUndefined()
    expect(slot.memo, 'its slot emptied').toBeUndefined()
    expect(json.find(RECORDS[0]!, 'ms', slot)).toBeUndefined()
  })

  it('spares a memo found since it was queued: queued again, unmarked, so the drop takes the next', () => {
    // Four memos of the same cost fit (100 bytes of JSON each); the first, found before the fifth is kept, is spared
    // and queued behind the others, which are not found, so the second goes; then the third, and the first is still
    // kept until its turn comes again unfound.
    const json = createMemoCache(4 * (100 + 'en'.length + OVERHEAD)).json
    const value = { t: 'x'.repeat(92) }
    for (const id of [0, 1, 2, 3]) json.keep(RECORDS[id]!, 'en', value)
    expect(json.find(RECORDS[0]!, 'en')).toBeDefined()
    json.keep(RECORDS[4]!, 'en', value)
    expect(json.find(RECORDS[1]!, 'en'), 'first in the queue, unused, so dropped').toBeUndefined()
    json.keep(RECORDS[5]!, 'en', value)
    expect(json.find(RECORDS[2]!, 'en'), 'next in the queue, so dropped').toBeUndefined()
    expect(json.find(RECORDS[0]!, 'en'), 'spared once, so kept').toBeDefined()
    expect(json.size).toBe(4)
  })

  it('keeps a memo that costs the whole bound, alone, and serves one a byte over without keeping it', () => {
    // `{"t":"…"}` is 8 bytes besides the text; a memo costs its JSON, its key and 256.
    const limit = 4 * 1_200
    const json = createMemoCache(limit).json
    for (const id of [0, 1, 2]) json.keep(RECORDS[id]!, 'en', { t: 'x'.repeat(934) })
    const whole = limit - 8 - 'en'.length - OVERHEAD
    expect(json.keep(RECORDS[3]!, 'en', { t: 'x'.repeat(whole) }).bytes.length).toBe(whole + 8)
    expect(json.size).toBe(1)
    expect(json.bytes).toBe(limit)
    expect(json.find(RECORDS[3]!, 'en')).toBeDefined()
    const over = json.keep(RECORDS[4]!, 'en', { t: 'x'.repeat(whole + 1) })
    expect(over.bytes.length).toBe(whole + 9)
    expect(json.find(RECORDS[4]!, 'en'), 'a byte over the bound: served, not kept').toBeUndefined()
    expect(json.find(RECORDS[3]!, 'en'), 'and nothing dropped for it').toBeDefined()
    expect(json.size).toBe(1)
  })

  it('keeps its queue in order when its ring grows with its first slot past the start', () => {
    // 60 memos costing 1,200 where 40 fit: the first 20 go, and the queue's first slot is the 21st of a ring of 64.
    // Then 200 costing 300, four for each of those 40 it drops: the ring grows to 128 and 256 from there, and once all
    // 40 are gone, each drops the oldest of the small ones.
    const json = createMemoCache(40 * 1_200).json
    const all = Array.from({ length: 260 }, (_, id) => ({ id }) as unknown as ContentRecord)
    // `{"t":"…"}` is 8 bytes besides the text; a memo costs its JSON, its key and 256.
    for (let id = 0; id < 260; id++) json.keep(all[id]!, 'en', { t: 'x'.repeat(id < 60 ? 934 : 34) })
    expect(json.size).toBe(160)
    expect(json.bytes).toBe(160 * 300)
    const kept = all.flatMap((record, id) => (json.find(record, 'en') ? [id] : []))
    expect(kept).toEqual(Array.from({ length: 160 }, (_, i) => 100 + i))
  })
})
