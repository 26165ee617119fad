/**
 * An anonymous answer as it went out the first time: the bytes and headers of a 200, and the span of time it
 * holds for. Its header objects are frozen and shared by every response served from it.
 */
export interface KeptAnswer {
  body: Uint8Array
  /** Every header of the 200, its `ETag` included. */
  headers: Readonly<Record<string, string>>
  /** The same without `Content-Type`: the headers of a 304. */
  notModified: Readonly<Record<string, string>>
  etag: string
  /** The answer is true for a clock in [from, until). */
  from: number
  until: number
}

/** How much an answer cache may hold: bytes (bodies, headers and keys, roughly) and answers. */
export interface AnswerCacheBounds {
  maxBytes: number
  maxEntries: number
}

export const ANSWER_CACHE_BOUNDS: AnswerCacheBounds = { maxBytes: 16 * 1024 * 1024, maxEntries: 4096 }

/** What an answer costs besides its body: its headers, its key and the map's own bookkeeping, roughly. */
const OVERHEAD = 1024

/**
 * The answers one app keeps, by key, for one store version: a different version empties it. The least recently
 * used go first when a bound is reached; an answer larger than a quarter of the byte budget is not kept.
 */
export interface AnswerCache {
  /** The answer kept under `key` for this version that is true at `now`, if any. */
  find(key: string, version: number, now: number): KeptAnswer | undefined
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
  let version = -1
  let bytes = 0
  let hits = 0
  const sync = (current: number) => {
    if (current === version) return
    entries.clear()
    bytes = 0
    version = current
  }
  const drop = (key: string) => {
    bytes -= entries.get(key)?.cost ?? 0
    entries.delete(key)
  }
  return {
    find(key, current, now) {
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
    },
    keep(key, current, answer) {
      if (current < version) return
      sync(current)
      const cost = answer.body.byteLength + key.length * 2 + OVERHEAD
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
