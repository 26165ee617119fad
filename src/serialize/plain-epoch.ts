import { isSeries } from '../content/model/record-types.ts'
import type { ContentRecord, Store } from '../content/store.ts'
import type { MemoCache } from '../context/caches.ts'
import { countsInTerms, termIdsOf } from '../content/model/derive.ts'

// What a plain event (neither a series nor an occurrence) shows comes from itself and from records of other kinds:
// its venue, organizers, categories and tags; from what moves the store's version without telling of a record (the
// media library); and from the other events (plain ones, series and their occurrences) in
// one place only, the `count` of each category and tag it embeds. Another event's change shows in nothing else (one
// that changes a neighbour's served slug settles that neighbour again, as a new record object). So what is kept of a
// plain event (its JSON, its VEVENT's key) is kept per record object and this epoch, not per store version: the
// epoch moves with any change of a record that is no event, and with an event's that moves a term's count. An edit
// of one event's title, dates or text, or of a series (its occurrences told one by one), leaves every other plain
// event's kept JSON in use. An occurrence's JSON is kept the same way (`keptByEpoch`): it shows its series, but a
// change of the series makes every occurrence anew, so the record object stands for both.

const epochs = new WeakMap<MemoCache, () => number>()

/**
 * Whether what is kept of an event is kept per record object and epoch: a plain event's, and an occurrence's, which
 * shows its series as it was when the occurrence was made (a change of the series makes every occurrence anew). A
 * series' own answer lists its next occurrences, and is kept for the store version.
 */
export function keptByEpoch(record: ContentRecord): boolean {
  return record.kind === 'events' && !isSeries(record)
}

/** The epoch of an app's caches over its store: it moves with every change a plain event could show. */
export function plainEpoch(cache: MemoCache, store: Store): number {
  let epoch = epochs.get(cache)
  if (!epoch) epochs.set(cache, (epoch = epochOf(store)))
  return epoch()
}

/** Whether a record is an event of any sort (or none): only term counts carry its change to a plain event. */
function isEvent(record: ContentRecord | undefined): boolean {
  return record === undefined || record.kind === 'events'
}

/** The terms whose counts an event adds to (src/query/indexes.ts), as a key: none when it is not counted. */
function countedTerms(record: ContentRecord | undefined): string {
  if (!record || !countsInTerms(record)) return ''
  return termIdsOf(record)
    .sort((a, b) => a - b)
    .join(',')
}

/**
 * A number that moves whenever a change could move what a plain event shows other than itself: a change of a record
 * that is no event, an event's (plain, series or occurrence) that moves a term's count, or a version the store moved
 * without telling of a record.
 */
function epochOf(store: Store): () => number {
  let epoch = 0
  let heard = store.version
  store.onChange((before, after) => {
    const events = isEvent(before) && isEvent(after)
    if (store.version !== heard + 1 || !events || countedTerms(before) !== countedTerms(after)) epoch++
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
