import { isSeries } from '../content/model/record-types.ts'
import type { ContentRecord, Store } from '../content/store.ts'
import type { MemoCache } from '../context/caches.ts'
import { countsInTerms, termIdsOf } from '../content/model/derive.ts'

// What a plain event (neither a series nor an occurrence) shows comes from itself and from records of other kinds:
// its venue, organizers, categories, tags, series; from what moves the store's version without telling of a
// record (git's commit dates, the media library); and from the other events in one place only, the `count` of
// each category and tag it embeds. Another plain event's change shows in nothing else (one that changes a
// neighbour's served slug settles that neighbour again, as a new record object). So what is kept of a plain event
// (its JSON, its VEVENT's key) is kept per record object and this epoch, not per store version: the epoch moves
// with any change but a plain event's, and with a plain event's that moves a term's count. An edit of one event's
// title, dates or text leaves every other event's kept JSON in use.

const epochs = new WeakMap<MemoCache, () => number>()

/** Whether a record is a plain event: nothing else shows it, so its change moves no other's epoch. */
export function isPlainEvent(record: ContentRecord | undefined): boolean {
  return record === undefined || (record.kind === 'events' && !record.series && !isSeries(record))
}

/** The epoch of an app's caches over its store: it moves with every change a plain event could show. */
export function plainEpoch(cache: MemoCache, store: Store): number {
  let epoch = epochs.get(cache)
  if (!epoch) epochs.set(cache, (epoch = epochOf(store)))
  return epoch()
}

/** The terms whose counts an event adds to (src/query/indexes.ts), as a key: none when it is not counted. */
function countedTerms(record: ContentRecord | undefined): string {
  if (!record || !countsInTerms(record)) return ''
  return termIdsOf(record)
    .sort((a, b) => a - b)
    .join(',')
}

/**
 * A number that moves whenever a change could move what a plain event shows other than itself: a change of any
 * record but a plain event, a plain event's that moves a term's count, or a version the store moved without telling
 * of a record.
 */
function epochOf(store: Store): () => number {
  let epoch = 0
  let heard = store.version
  store.onChange((before, after) => {
    const plain = isPlainEvent(before) && isPlainEvent(after)
    if (store.version !== heard + 1 || !plain || countedTerms(before) !== countedTerms(after)) epoch++
    heard = store.version
  })
  return () => {
    if (store.version !== heard) {
      epoch++
      heard = store.version
    }
    return epoch
  }
}
