import { isSeries } from '../content/model/record-types.ts'
import type { ContentRecord, Store } from '../content/store.ts'
import type { MemoCache } from '../context/caches.ts'

// What a plain event (neither a series nor an occurrence) shows comes from itself and from records of other kinds:
// its venue, organizers, categories, tags, series; and from what moves the store's version without telling of a
// record (git's commit dates, the media library). Another plain event's change shows in none of it (one that
// changes a neighbour's served slug settles that neighbour again, as a new record object). So what is kept of a
// plain event (its JSON, its VEVENT's key) is kept per record object and this epoch, not per store version: an
// edit of one event leaves every other event's kept JSON in use.

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

/**
 * A number that moves whenever a change could move what a plain event shows other than itself: a change of any
 * record but a plain event, or a version the store moved without telling of a record.
 */
function epochOf(store: Store): () => number {
  let epoch = 0
  let heard = store.version
  store.onChange((before, after) => {
    if (store.version !== heard + 1 || !isPlainEvent(before) || !isPlainEvent(after)) epoch++
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
