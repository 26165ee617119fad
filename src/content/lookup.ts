import type { Kind } from './model/kinds.ts'
import { TRASHED_SUFFIX } from './model/post-state.ts'
import type { Lang } from '../languages.ts'
import type { Store } from './store.ts'

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
  const name = item.toLowerCase()
  return ctx.store
    .list(kind)
    .find((term) => String(ctx.store.fieldsIn(term, ctx.lang)?.name ?? '').toLowerCase() === name)
}

/** A post in the trash, by the slug it shows there (`slug__trashed`) or by its own. */
export function findTrashedBySlug(ctx: LookupScope, kind: Kind, slug: string) {
  const base = slug.endsWith(TRASHED_SUFFIX) ? slug.slice(0, -TRASHED_SUFFIX.length) : slug
  return base
    ? ctx.store.list(kind).find((r) => r.source.data.status === 'trash' && r.source.data.slug === base)
    : undefined
}
