import type { ContentRecord } from '../content/store.ts'

// Records are immutable: a change makes a new record object and moves the store version. So a
// record's JSON, for one language, site and shape, can be kept until then; lists of any filter
// reuse the same strings instead of serializing the same events again on every request.
const texts = new WeakMap<ContentRecord, Map<string, string>>()
const PER_RECORD = 16

/** The JSON text of a record for a key, built once per key and kept with the record. */
export function memoJson(record: ContentRecord, key: string, build: () => unknown): string {
  let byKey = texts.get(record)
  if (!byKey) texts.set(record, (byKey = new Map()))
  let text = byKey.get(key)
  if (text === undefined) {
    text = JSON.stringify(build())
    // A record is asked for in few shapes; a bound keeps a store version change from piling them up.
    if (byKey.size >= PER_RECORD) byKey.clear()
    byKey.set(key, text)
  }
  return text
}
