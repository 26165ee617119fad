import { postDates } from '../content/model/derive.ts'
import type { ContentRecord, Store } from '../content/store.ts'
import type { Lang } from '../languages.ts'
import type { ListedKind, RecordOrder } from '../context/indexes.ts'

/**
 * Venues, organizers, categories and tags in their list order, each sort key computed once per
 * record: venues and organizers newest publication first (then id, descending, as WordPress), terms
 * by name in the language asked for (then id). A kind's order is dropped when one of its records
 * changes and sorted again on its next list, so a list page is a filter over an ordered list, not a sort.
 */
export function createRecordOrder(store: Store, siteZone: string): RecordOrder {
  const orders = new Map<string, readonly ContentRecord[]>()
  return {
    ordered(kind, lang) {
      const key = byName(kind) ? `${kind} ${lang}` : kind
      let list = orders.get(key)
      if (!list) {
        list = byName(kind) ? sortedByName(store, kind, lang) : sortedByPublication(store, kind, siteZone)
        orders.set(key, list)
      }
      return list
    },
    update(before, after) {
      const kind = (after ?? before)?.kind
      for (const key of [...orders.keys()]) if (key.split(' ')[0] === kind) orders.delete(key)
    },
  }
}

function byName(kind: ListedKind): boolean {
  return kind === 'categories' || kind === 'tags'
}

function sortedByPublication(store: Store, kind: ListedKind, siteZone: string): ContentRecord[] {
  const keyed = store.list(kind).map((record) => ({ record, key: postDates(record, siteZone).published }))
  keyed.sort((a, b) => b.key - a.key || b.record.id - a.record.id)
  return keyed.map(({ record }) => record)
}

/** A term's name as its list reads it (`''` when it has none in the language). */
export function termField(store: Store, record: ContentRecord, lang: Lang, field: string): string {
  return String(store.fieldsIn(record, lang)?.[field] ?? '')
}

function sortedByName(store: Store, kind: ListedKind, lang: Lang): ContentRecord[] {
  const keyed = store.list(kind).map((record) => ({ record, key: termField(store, record, lang, 'name') }))
  keyed.sort((a, b) => a.key.localeCompare(b.key) || a.record.id - b.record.id)
  return keyed.map(({ record }) => record)
}
