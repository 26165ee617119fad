import type { Kind } from './model/kinds.ts'
import { TRASHED_SUFFIX } from './model/post-state.ts'
import type { Lang } from '../languages.ts'
import type { ContentRecord, Store } from './store.ts'

// Looking records up the way a request names them: by slug in its language (percent-encoded or
// not), and terms by id, slug or name. Queries, writes, routes and argument checks all ask here.

/** Where a lookup looks: the records and the request's language. */
export interface LookupScope {
  store: Store
  lang: Lang
}

/** Finds by slug in the request's language, accepting the percent-encoded form too (docs/compatibility.md §10). */
export function findBySlug(ctx: LookupScope, kind: Kind, slug: string) {
  const direct = ctx.store.bySlug(kind, ctx.lang, slug)
  if (direct) return direct
  try {
    const decoded = decodeURIComponent(slug)
    return decoded === slug ? undefined : ctx.store.bySlug(kind, ctx.lang, decoded)
  } catch {
    return undefined
  }
}

/** Resolves a term by id, slug or name (WordPress `term_exists`). */
export function findTerm(ctx: LookupScope, kind: 'categories' | 'tags', item: string) {
  if (/^\d+$/.test(item)) return ctx.store.get(kind, Number(item))
  const bySlug = findBySlug(ctx, kind, item)
  if (bySlug) return bySlug
  return termsByName(ctx, kind).get(item.toLowerCase())
}

const NAMES = new WeakMap<Store, { version: number; byKind: Map<string, Map<string, ContentRecord>> }>()

/**
 * A kind's terms by lower-cased name in the scope's language, the first in list order for each name, made once per
 * store version: a filter may name thousands of terms, and looking each through every term took seconds.
 */
function termsByName(ctx: LookupScope, kind: 'categories' | 'tags'): Map<string, ContentRecord> {
  let kept = NAMES.get(ctx.store)
  if (kept?.version !== ctx.store.version)
    NAMES.set(ctx.store, (kept = { version: ctx.store.version, byKind: new Map() }))
  const key = `${kind} ${ctx.lang}`
  let names = kept.byKind.get(key)
  if (!names) {
    names = new Map()
    for (const term of ctx.store.list(kind)) {
      const name = String(ctx.store.fieldsIn(term, ctx.lang)?.name ?? '').toLowerCase()
      if (!names.has(name)) names.set(name, term)
    }
    kept.byKind.set(key, names)
  }
  return names
}

/** A post in the trash, by the slug it shows there (`slug__trashed`) or by its own. */
export function findTrashedBySlug(ctx: LookupScope, kind: Kind, slug: string) {
  const base = slug.endsWith(TRASHED_SUFFIX) ? slug.slice(0, -TRASHED_SUFFIX.length) : slug
  return base
    ? ctx.store.list(kind).find((r) => r.source.data.status === 'trash' && r.source.data.slug === base)
    : undefined
}
