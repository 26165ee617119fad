import type { ContentRecord } from '../../content/store.ts'
import type { Memo } from '../../context/caches.ts'
import { siteKey } from '../urls.ts'
import type { View } from '../view.ts'
import { heldPlain, holdVevent, plainKey, type Span } from './plain-keys.ts'
import { memoKey, veventText } from './vevent.ts'

// A plain event's VEVENT (vevent.ts) through its kept key (plain-keys.ts), or as its app holds it.

/**
 * A plain event's VEVENT (neither a series nor an occurrence), as `veventOf` has it, with its zone's span: its memo
 * key is kept while nothing it names changes (plain-keys.ts), so a feed of kept VEVENTs is put together cheaply.
 */
export function plainVevent(
  record: ContentRecord,
  view: View,
  uid: string,
  spanOf: (record: ContentRecord) => Span,
): { memo: Memo; span: Span } {
  const scope = plainScope(view)
  const cache = view.caches.feed
  const {
    key,
    span,
    memo: held,
  } = plainKey(cache, view.store, record, scope, () => ({
    key: memoKey(record, view, { uid }),
    span: spanOf(record),
  }))
  if (held) return { memo: held, span }
  const memo = cache.json.text(record, key, () => veventText(record, view, { uid }))
  holdVevent(cache, record, scope, memo)
  return { memo, span }
}

/** A plain event's VEVENT and span as its app holds them (`holdVevents`), while nothing they show has changed. */
export function heldVevent(record: ContentRecord, view: View): { memo: Memo; span: Span } | undefined {
  return heldPlain(view.caches.feed, record, plainScope(view))
}

/** What a plain event's VEVENT depends on besides its records (its UID is its id at the site's host). */
export function plainScope(view: View): string {
  const last = scopes.get(view.site)
  if (last?.lang === view.lang) return last.scope
  const scope = `${view.lang} ${siteKey(view.site)} ${view.site.timezone} ${view.site.host}`
  scopes.set(view.site, { lang: view.lang, scope })
  return scope
}

/** The last scope of each site, so that a feed's 10,000 lookups use one string (its hash computed once). */
const scopes = new WeakMap<object, { lang: string; scope: string }>()
