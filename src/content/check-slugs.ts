import type { Problem } from './checks/problems.ts'
import { NAME_FIELD } from './model/kinds.ts'
import { statusIn } from './model/post-state.ts'
import type { ContentRecord } from './model/record-types.ts'
import { slugify, uniqueSlug } from './slugs.ts'
import type { Store } from './store.ts'

/**
 * A source without a slug is served with an empty one: no by-slug address, and a `url` in WordPress's `?p=` form.
 * Normal for a draft (WordPress gives a slug on publishing); for any other status, something an editor forgot.
 * The warning suggests the slug the API would make: free in every language, and not one suggested already in this
 * run (`suggested`), so following every suggestion makes no clash.
 */
export function missingSlugWarning(record: ContentRecord, store: Store, suggested: Suggested): Problem[] {
  const { data } = record.source
  if (record.series || (data.slug !== undefined && data.slug !== null && data.slug !== '')) return []
  if (['draft', 'pending', 'trash'].includes(statusIn(data))) return []
  const name = NAME_FIELD[record.kind]
  const base = slugify(String(data[name] ?? '')) || 'untitled'
  const taken = suggested.slugs.get(record.kind) ?? new Set<string>()
  suggested.slugs.set(record.kind, taken)
  // A base suggested before starts where that one ended: many sources of one title stay linear.
  const from = suggested.next.get(`${record.kind}/${base}`) ?? 1
  const slug = uniqueSlug(store, record.kind, record.source.lang, base, record.id, { taken, from })
  taken.add(slug)
  suggested.next.set(`${record.kind}/${base}`, slug === base ? 2 : Number(slug.slice(base.length + 1)) + 1)
  const message = `slug is not set, so it is served with an empty slug and has no by-slug address: add one (slug: ${slug}, made from its ${name} as the API makes one)`
  return [{ path: record.source.path, line: 1, message, severity: 'warning' }]
}

/** The slugs one run of `check` suggested, by kind, and where each base's next suggestion starts. */
export interface Suggested {
  slugs: Map<string, Set<string>>
  next: Map<string, number>
}

export function noSuggestions(): Suggested {
  return { slugs: new Map(), next: new Map() }
}
