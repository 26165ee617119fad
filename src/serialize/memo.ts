import type { ContentRecord } from '../content/store.ts'
import { createHash } from 'node:crypto'

/**
 * A record's JSON as UTF-8 bytes, with their digest. Bytes, because a response assembled from
 * them is a memcpy, where a string would be encoded again on every write; the digest, so the
 * response need not be hashed again for its ETag.
 */
export interface Memo {
  bytes: Buffer
  digest: string
}

// Records are immutable: a change makes a new record object and moves the store version. So a
// record's JSON, for one language, site and shape, can be kept until then; lists of any filter
// reuse the same strings instead of serializing the same events again on every request.
const memos = new WeakMap<ContentRecord, Map<string, Memo>>()
const PER_RECORD = 16

/** The JSON text of a record for a key, built (and digested) once per key and kept with the record. */
export function memoJson(record: ContentRecord, key: string, build: () => unknown): Memo {
  let byKey = memos.get(record)
  if (!byKey) memos.set(record, (byKey = new Map()))
  let memo = byKey.get(key)
  if (memo === undefined) {
    const bytes = Buffer.from(JSON.stringify(build()))
    memo = { bytes, digest: digest(bytes) }
    // A record is asked for in few shapes; a bound keeps store version changes from piling them up.
    if (byKey.size >= PER_RECORD) byKey.clear()
    byKey.set(key, memo)
  }
  return memo
}

/** SHA-1 in base64url: short, and collisions are out of reach for content that editors write. */
export function digest(text: string | Uint8Array): string {
  return createHash('sha1').update(text).digest('base64url')
}
