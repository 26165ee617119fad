import type { Kind } from './model/kinds.ts'
import type { Store } from './store.ts'
import { isSeries } from './model/record-types.ts'
import { LANGUAGES, type Lang } from '../languages.ts'
import { trimOf } from '../text.ts'

/**
 * A slug from a title (docs/compatibility.md §10): lower case, spaces and dashes to one hyphen, punctuation dropped,
 * letters of every script kept (`新年 Gala!` → `新年-gala`). Never `/`, `..` or a dot.
 */
export function slugify(text: string): string {
  const hyphenated = text
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]+/gu, '')
    .trim()
    .replace(/[\s_-]+/g, '-')
  return trimOf(hyphenated, '-').slice(0, 190)
}

/**
 * `base`, or `base-2`, `base-3`… until no other record of the kind uses it in any language. A slug
 * written in `lang` is also served in every language the record has no file in (fallback), so a
 * slug free only in `lang` could clash there, and the clash would drop a record at the next load. A slug the
 * record itself holds (`selfId`) is free for it. `taken`: slugs given meanwhile that the store does not hold yet
 * (`check`'s suggestions); `from`: the first suffix worth trying, for a caller that gave this base before.
 */
export function uniqueSlug(
  store: Store,
  kind: Kind,
  _lang: Lang,
  base: string,
  selfId?: number,
  { taken = new Set<string>(), from = 1 }: { taken?: ReadonlySet<string>; from?: number } = {},
): string {
  const root = base || 'untitled'
  const holders = (slug: string) => LANGUAGES.map((l) => store.bySlug(kind, l, slug)?.id)
  const free = (slug: string) => {
    if (taken.has(slug)) return false
    const ids = holders(slug)
    if (!ids.every((id) => id === undefined || id === selfId)) return false
    // One it holds already stays its own, whatever form it has.
    if (selfId !== undefined && ids.includes(selfId)) return true
    return !(kind === 'events' && keptForOccurrences(store, slug, selfId))
  }
  for (let n = from; ; n++) {
    const slug = n === 1 ? root : `${root}-${n}`
    if (free(slug)) return slug
  }
}

/** `<slug>-<YYYY-MM-DD>`, with the time for a second occurrence that day (`-1700`): an occurrence's slug. */
const OCCURRENCE_SLUG = /^(.+)-\d{4}-\d{2}-\d{2}(?:-\d{4})?$/

/**
 * Whether a slug has the form of an occurrence's of a series (its slug and a date, docs/recurrence.md §7), one that
 * is or may later be served: a record's own slug wins over an occurrence's, so a slug given now must not take the
 * address of an occurrence that a longer rule, or a date moved later, makes.
 */
function keptForOccurrences(store: Store, slug: string, selfId: number | undefined): boolean {
  const series = OCCURRENCE_SLUG.exec(slug)?.[1]
  if (series === undefined) return false
  return LANGUAGES.some((lang) => {
    const holder = store.bySlug('events', lang, series)
    return holder !== undefined && holder.id !== selfId && isSeries(holder)
  })
}
