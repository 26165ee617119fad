import { hash } from 'node:crypto'
import type { ContentRecord } from '../content/store.ts'
import type { Memo, MemoCache, MemoSlot } from '../context/caches.ts'
import { ownUtf8 } from '../text.ts'
import { Queue } from './memo-queue.ts'

// The JSON cache is bounded by bytes and drops what was not used lately (second chance, below): hot records stay,
// a crawl of everything does not pile up.
export const MEMO_LIMIT_BYTES = 64 * 1024 * 1024
/** What feeds' VEVENTs may hold: a 10,000-event calendar's whole feed is some 10 MB per language. */
export const FEED_LIMIT_BYTES = 48 * 1024 * 1024
/** What a memo costs besides its JSON: its key, digest and entry, roughly. */
const MEMO_OVERHEAD = 256
// Few: what is built again soon after (a list page and the single reads of its events) is found.
const RECENT_LIMIT = 1024
/** How many keys `canonical` holds before it starts again: a key is a view (language, reader, site) and an epoch. */
const CANONICAL_LIMIT = 64

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
 * A kept memo: its key, whether it was found since it was last queued, the list of its record's memos it is in (none
 * when it is the record's only memo, held alone), its record, weakly (a queued memo must not keep an edited record
 * alive), and the one slot that may hold it, weakly too; both are read when it is dropped.
 */
type Entry = Memo & {
  key: string
  list: Entry[] | undefined
  home: WeakRef<ContentRecord>
  slot: WeakRef<MemoSlot> | undefined
  used: boolean
}

function createJsonCache(limitBytes: number): MemoCache['json'] {
  // Found by record (an object, hashed by identity) and then by key among its few memos. A Map keyed by `serial|key`
  // strings built for every lookup was a tenth of a varied list's time. Nothing here holds a record but weakly: an
  // edited record's memos go when their turn comes.
  // A record's only memo is held alone, not in a list of one: a list is two more objects to read a lookup, each far
  // off on the heap (a list's events are found by the dozen, and these reads were most of it). A list left with one
  // memo holds it alone again: a move of the plain epoch gives every event listed since a second memo, and the
  // first goes when the bound needs its room.
  const byRecord = new WeakMap<ContentRecord, Entry | Entry[]>()
  // What goes first is chosen by second chance (CLOCK): the entries wait in a queue, a lookup that finds one marks
  // it used, and a drop takes the queue's first entry, which goes if unused and, if used, is unmarked and queued again.
  // Close to least recently used, and a lookup writes one flag, in the entry it read. It replaced a `Set` in order of
  // use, where a hit in the older half was deleted and added again, and a drop walked from the `Set`'s first slot
  // past every hole V8 leaves there for a deleted entry until it rehashes (8–26 µs a keep once full, at 10,000 small
  // memos; docs/architecture.md, the JSON memo's row of "Caches").
  const queue = new Queue<Entry>()
  const canonical = new Map<string, string>()
  let bytes = 0
  const cost = (entry: { bytes: Uint8Array; key: string }) => entry.bytes.length + entry.key.length + MEMO_OVERHEAD
  const find = (record: ContentRecord, key: string, given?: MemoSlot): Memo | undefined => {
    // A slot holds only memos kept now (a drop empties it), and only its own record's (the record it names is the
    // caller's, which it has just read).
    const slot = given?.record === record ? given : undefined
    const last = slot?.memo as Entry | undefined
    if (last !== undefined && last.key === key) {
      last.used = true
      return last
    }
    const held = byRecord.get(record)
    const found =
      held === undefined ? undefined : Array.isArray(held) ? findKey(held, key) : held.key === key ? held : undefined
    if (found) {
      found.used = true
      if (slot) hold(slot, found)
    }
    return found
  }
  // Puts a memo in a slot, unless another slot holds it now (a drop empties one slot, the one the memo names).
  const hold = (slot: MemoSlot, entry: Entry) => {
    const named = entry.slot?.deref()
    if (named !== undefined && named !== slot && named.memo === entry) return
    if (named !== slot) entry.slot = new WeakRef(slot)
    slot.memo = entry
  }
  // Takes a dropped memo out of where its record's memos are held (and out of its slot); a list left with one memo
  // holds it alone again.
  const release = (entry: Entry) => {
    const slot = entry.slot?.deref()
    if (slot !== undefined && slot.memo === entry) slot.memo = undefined
    const { list } = entry
    if (list) list.splice(list.indexOf(entry), 1)
    if (list && list.length > 1) return
    // A record collected meanwhile took what the WeakMap held for it along.
    const record = entry.home.deref()
    if (record === undefined) return
    const rest = list?.[0]
    if (rest === undefined) byRecord.delete(record)
    else {
      rest.list = undefined
      byRecord.set(record, rest)
    }
  }
  // Drops until `room` more bytes fit. A pass over the queue unmarks all it passes, so a drop ends within two; each
  // move unmarks what a lookup marked, so the moves are at most the lookups made.
  const makeRoom = (room: number) => {
    while (bytes + room > limitBytes && queue.size > 0) {
      const first = queue.shift()
      if (first.used) {
        first.used = false
        queue.push(first)
      } else {
        bytes -= cost(first)
        release(first)
      }
    }
  }
  const add = (record: ContentRecord, key: string, made: Buffer, listed: boolean, slot?: MemoSlot): Memo => {
    const text = listed ? made.subarray(1) : made
    const memo = { bytes: text, digest: digest(text), listed: listed ? made : undefined }
    // One memo past the whole bound is served and not kept: kept, it would push out every other and then itself.
    const room = cost({ bytes: text, key })
    if (room > limitBytes) return memo
    makeRoom(room)
    // A literal, not a spread of `memo`: entries made by a spread were found three times slower (in-process, 1.6–2.8
    // µs a lookup at 12,000 memos against 0.5–0.9 µs).
    const entry: Entry = {
      bytes: memo.bytes,
      digest: memo.digest,
      listed: memo.listed,
      key,
      list: undefined,
      home: new WeakRef(record),
      slot: undefined,
      used: false,
    }
    const held = byRecord.get(record)
    if (held === undefined) byRecord.set(record, entry)
    else if (Array.isArray(held)) {
      entry.list = held
      held.push(entry)
    } else {
      const list = [held, entry]
      held.list = entry.list = list
      byRecord.set(record, list)
    }
    queue.push(entry)
    bytes += room
    if (slot?.record === record) hold(slot, entry)
    return entry
  }
  // A buffer of its own: one in a shared slab would keep the slab (see ownUtf8), beyond what is counted.
  return {
    find,
    keep: (record, key, value, slot) => add(record, key, ownUtf8(JSON.stringify(value), ','), true, slot),
    text: (record, key, build) => find(record, key) ?? add(record, key, ownUtf8(build()), false),
    // A key made for each list is a new string, and `===` reads both texts when their objects differ: at a list's
    // dozens of events, each key kept with its memo was one more miss of the processor's caches. Emptied when full
    // (old epochs' keys): a key then gets a new object, and its memos are still found, by reading.
    canonical(key) {
      const kept = canonical.get(key)
      if (kept !== undefined) return kept
      if (canonical.size >= CANONICAL_LIMIT) canonical.clear()
      canonical.set(key, key)
      return key
    },
    get bytes() {
      return bytes
    },
    get size() {
      return queue.size
    },
  }
}

/**
 * The entry of a record's memos kept under `key` (a loop: no closure made for each lookup), the newest first: after a
 * move of the epoch, the memo of the epoch now is the last kept, and the older ones wait for their drop.
 */
function findKey(list: Entry[], key: string): Entry | undefined {
  for (let i = list.length - 1; i >= 0; i--) if (list[i]!.key === key) return list[i]
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
