import { hash } from 'node:crypto'
import type { ContentRecord } from '../content/store.ts'
import type { Memo, MemoCache } from '../context/caches.ts'
import { ownUtf8 } from '../text.ts'

// The JSON cache is bounded by bytes and drops what was used least recently: hot records stay, a
// crawl of everything does not pile up.
export const MEMO_LIMIT_BYTES = 64 * 1024 * 1024
/** What feeds' VEVENTs may hold: a 10,000-event calendar's whole feed is some 10 MB per language. */
export const FEED_LIMIT_BYTES = 48 * 1024 * 1024
/** What a memo costs besides its JSON: its key, digest and entry, roughly. */
const MEMO_OVERHEAD = 256
// Few: what is built again soon after (a list page and the single reads of its events) is found.
const RECENT_LIMIT = 1024

interface Kept {
  version: number
  value: object
}

/** A new, empty set of serializer caches, for one app. */
export function createMemoCache(limitBytes = MEMO_LIMIT_BYTES): MemoCache {
  const serialOf = createSerials()
  const json = createJsonCache(limitBytes)
  const shapes = new WeakMap<ContentRecord, Map<string, Kept>>()
  const recent = new Map<string, object>()
  return {
    json,
    serial: serialOf,
    shape<T extends object>(record: ContentRecord, key: string, version: number, build: () => T): T {
      let kept = shapes.get(record)
      if (!kept) shapes.set(record, (kept = new Map()))
      const found = kept.get(key)
      if (found?.version === version) return found.value as T
      const value = deepFreeze(build())
      kept.set(key, { version, value })
      return value
    },
    recent<T extends object>(record: ContentRecord, key: string, build: () => T): T {
      const id = `${serialOf(record)}|${key}`
      const found = recent.get(id)
      if (found) {
        recent.delete(id)
        recent.set(id, found)
        return found as T
      }
      const value = deepFreeze(build())
      recent.set(id, value)
      if (recent.size > RECENT_LIMIT) recent.delete(recent.keys().next().value!)
      return value
    },
  }
}

/**
 * A kept memo: its key, the list of its record's memos it is in, and when it was last placed at the recent end (a
 * count of placings: inserts and moves).
 */
type Entry = Memo & { key: string; list: Entry[]; moved: number }

function createJsonCache(limitBytes: number): MemoCache['json'] {
  // Found by record (an object, hashed by identity) and then by key among its few memos; ordered, least recently
  // used first, in a Set of the entries. A Map keyed by `serial|key` strings built for every lookup was a tenth of
  // a varied list's time. The lists hold no record: an edited record's memos go when they are the oldest. Dropping
  // the oldest walks past the holes V8 leaves in the Set for deleted entries until it rehashes (8–26 µs a keep once
  // full, at 10,000 small memos); each order tried instead made the server's lookups dearer, or its memory unbounded
  // (docs/architecture.md, the JSON memo's row of "Caches").
  const byRecord = new WeakMap<ContentRecord, Entry[]>()
  const order = new Set<Entry>()
  let bytes = 0
  let placed = 0
  const cost = (entry: Entry) => entry.bytes.length + entry.key.length + MEMO_OVERHEAD
  const find = (record: ContentRecord, key: string): Memo | undefined => {
    const list = byRecord.get(record)
    const found = list && findKey(list, key)
    // Roughly least recently used: a hit among the newer half stays where it is.
    if (found && placed - found.moved > order.size / 2) {
      order.delete(found)
      order.add(found)
      found.moved = ++placed
    }
    return found
  }
  const add = (record: ContentRecord, key: string, made: Buffer, listed: boolean): Memo => {
    const text = listed ? made.subarray(1) : made
    const memo = { bytes: text, digest: digest(text), listed: listed ? made : undefined }
    // One memo past the whole bound is served and not kept: kept, it would push out every other and then itself.
    if (text.length + key.length + MEMO_OVERHEAD > limitBytes) return memo
    let list = byRecord.get(record)
    if (!list) byRecord.set(record, (list = []))
    // A literal, not a spread of `memo`: entries made by a spread were found three times slower (in-process, 1.6–2.8
    // µs a lookup at 12,000 memos against 0.5–0.9 µs).
    const entry: Entry = { bytes: memo.bytes, digest: memo.digest, listed: memo.listed, key, list, moved: ++placed }
    list.push(entry)
    order.add(entry)
    bytes += cost(entry)
    // Walked only when over the bound: a walk from the Set's first slot passes every hole a moved hit left there.
    if (bytes > limitBytes)
      for (const old of order) {
        if (bytes <= limitBytes) break
        order.delete(old)
        old.list.splice(old.list.indexOf(old), 1)
        bytes -= cost(old)
      }
    return entry
  }
  // A buffer of its own: one in a shared slab would keep the slab (see ownUtf8), beyond what is counted.
  return {
    find,
    keep: (record, key, value) => add(record, key, ownUtf8(JSON.stringify(value), ','), true),
    text: (record, key, build) => find(record, key) ?? add(record, key, ownUtf8(build()), false),
    get bytes() {
      return bytes
    },
    get size() {
      return order.size
    },
  }
}

/** The entry of a record's memos kept under `key` (a loop: no closure made for each lookup). */
function findKey(list: Entry[], key: string): Entry | undefined {
  for (const entry of list) if (entry.key === key) return entry
  return undefined
}

/** A number per record object: records are immutable, so a changed record has a new one. */
function createSerials(): (record: ContentRecord) => number {
  const serials = new WeakMap<ContentRecord, number>()
  let next = 0
  return (record) => {
    let serial = serials.get(record)
    if (serial === undefined) serials.set(record, (serial = next++))
    return serial
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const inner of Object.values(value)) deepFreeze(inner)
  }
  return value
}

/** SHA-1 in base64url: short, and collisions are out of reach for content that editors write. */
export function digest(text: string | Uint8Array): string {
  // One call, no Hash object (Node 20.12+): half the cost for a short text, and an answer composes its ETag
  // from one digest per response, an event's JSON takes one when it is first kept.
  return hash('sha1', text, 'base64url')
}
