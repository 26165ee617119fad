import { byteLengthOf } from './body-parts.ts'

/**
 * An anonymous answer as it went out the first time: the bytes and headers of a 200, and the span of time it
 * holds for. Its header objects are frozen and shared by every response served from it.
 */
export interface KeptAnswer {
  /**
   * Bytes, or parts (an event list's memoized pieces, shared with the JSON memo) written one after another, until
   * the answer is hot (`served`).
   */
  body: Uint8Array | readonly Uint8Array[]
  /** Every header of the 200, its `ETag` included. */
  headers: Readonly<Record<string, string>>
  /** The same without `Content-Type`: the headers of a 304. */
  notModified: Readonly<Record<string, string>>
  etag: string
  /** The same answer as Node is handed it (`front-door.ts`): header lists for a 200 and a 304, made when first asked. */
  wire(): Wire
  /**
   * The body to write for a serve at `now` (ms). Parts are joined into one buffer of its own, and the parts let go,
   * once the front door serves the answer `HOT_SERVES` times within `HOT_MS`: a hot answer is then written as any
   * single body is.
   */
  served(now: number): Uint8Array | readonly Uint8Array[]
  /** The answer is true for a clock in [from, until). */
  from: number
  until: number
}

/** Raw header lists (`name, value, …`, names lower-cased) in the order srvx hands Node a FastResponse's headers. */
export interface Wire {
  ok: string[]
  notModified: string[]
}

/** How much an answer cache may hold: bytes (bodies, headers and keys, roughly) and answers. */
export interface AnswerCacheBounds {
  maxBytes: number
  maxEntries: number
}

export const ANSWER_CACHE_BOUNDS: AnswerCacheBounds = { maxBytes: 16 * 1024 * 1024, maxEntries: 4096 }

/** A request longer than this (target and `Origin`) is never aliased: at most maxEntries × 2 aliases of ≤ 2,048 characters. */
const MAX_RAW = 2048

/** What an answer costs besides its body: its headers, its key and the map's own bookkeeping, roughly. */
const OVERHEAD = 1024

/**
 * How many first asks are remembered (keys only, each ≤ MAX_RAW characters), for an answer that would push another
 * out: it is kept only if its key is asked again within the next this many such asks.
 */
export const FIRST_ASKS = 1024

/**
 * The answers one app keeps, by key, for one store version: a different version empties it. The least recently
 * used go first when a bound is reached; an answer larger than a quarter of the byte budget is not kept.
 */
export interface AnswerCache {
  /** The answer kept under `key` for this version that is true at `now`, if any. */
  find(key: string, version: number, now: number): KeptAnswer | undefined
  /**
   * Notes that the request written `raw` (its target and `Origin` exactly as they came off the socket) is answered
   * by the answer kept under `key`, so the front door can serve it again before any routing.
   */
  alias(raw: string, key: string, version: number): void
  /** The answer kept for a request written `raw`, if it was aliased and its answer is still kept and true. */
  findRaw(raw: string, version: number, now: number): KeptAnswer | undefined
  /**
   * Whether an answer of `bytes` (its body) to `key` would be kept: at once while it fits beside the others, but
   * one that would push another out only on its second ask among the last FIRST_ASKS such asks (this one is
   * noted), so a stream of queries each asked once does not churn the answers that are asked again.
   */
  admits(key: string, version: number, bytes: number): boolean
  /** Keeps an answer computed over `version` (ignored if the store has moved on since). */
  keep(key: string, version: number, answer: KeptAnswer): void
  /** How many answers, and how many bytes, it holds now; how many requests it has answered. */
  readonly size: number
  readonly bytes: number
  readonly hits: number
}

export function createAnswerCache(bounds: AnswerCacheBounds = ANSWER_CACHE_BOUNDS): AnswerCache {
  // A Map iterates in insertion order: a hit is moved to the end, so the first key is the least recently used.
  const entries = new Map<string, { answer: KeptAnswer; cost: number }>()
  // Raw request → key; at most twice as many as answers, dropped oldest first, emptied with the answers.
  const aliases = new Map<string, string>()
  // Keys asked once whose answer was not kept for want of room, oldest first; emptied with the answers.
  const asked = new Set<string>()
  let version = -1
  let bytes = 0
  let hits = 0
  const sync = (current: number) => {
    if (current === version) return
    entries.clear()
    aliases.clear()
    asked.clear()
    bytes = 0
    version = current
  }
  const drop = (key: string) => {
    bytes -= entries.get(key)?.cost ?? 0
    entries.delete(key)
  }
  const find = (key: string, current: number, now: number) => {
    sync(current)
    const entry = entries.get(key)
    if (!entry) return undefined
    entries.delete(key)
    if (now < entry.answer.from || now >= entry.answer.until) {
      bytes -= entry.cost
      return undefined
    }
    entries.set(key, entry)
    hits++
    return entry.answer
  }
  const costOf = (key: string, body: number) => body + key.length * 2 + OVERHEAD
  return {
    find,
    admits(key, current, body) {
      if (current < version) return false
      sync(current)
      const cost = costOf(key, body)
      if (cost > bounds.maxBytes / 4 || bounds.maxEntries < 1) return false
      const old = entries.get(key)
      const room =
        bytes - (old?.cost ?? 0) + cost <= bounds.maxBytes && entries.size - (old ? 1 : 0) < bounds.maxEntries
      if (room || asked.delete(key)) return true
      if (key.length > MAX_RAW) return false
      if (asked.size >= FIRST_ASKS) asked.delete(asked.values().next().value!)
      asked.add(key)
      return false
    },
    alias(raw, key, current) {
      if (current !== version || raw.length > MAX_RAW || !entries.has(key)) return
      aliases.delete(raw)
      if (aliases.size >= bounds.maxEntries * 2) aliases.delete(aliases.keys().next().value!)
      aliases.set(raw, key)
    },
    findRaw(raw, current, now) {
      const key = aliases.get(raw)
      return key === undefined ? undefined : find(key, current, now)
    },
    keep(key, current, answer) {
      if (current < version) return
      sync(current)
      const cost = costOf(key, byteLengthOf(answer.body))
      if (cost > bounds.maxBytes / 4 || bounds.maxEntries < 1) return
      drop(key)
      while (entries.size > 0 && (bytes + cost > bounds.maxBytes || entries.size >= bounds.maxEntries))
        drop(entries.keys().next().value!)
      entries.set(key, { answer, cost })
      bytes += cost
    },
    get size() {
      return entries.size
    },
    get bytes() {
      return bytes
    },
    get hits() {
      return hits
    },
  }
}
