import type { Problem } from './checks/problems.ts'
import { NAME_FIELD } from './model/kinds.ts'
import { statusIn } from './model/post-state.ts'
import type { ContentRecord } from './model/record-types.ts'
import { slugify, uniqueSlug } from './slugs.ts'
import type { Store } from './store.ts'
import type { ContentDriver } from './store/driver.ts'
import { exhaustedMarks, HIGH_WATER_FILE } from './store/id-allocation.ts'

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

/**
 * `trashed_from` on a post that is not in the trash: read only there (the rights of a trashed post), so it says
 * nothing; the next DELETE writes it again. A warning, as a sign of a hand edit that restored the post half-way.
 */
export function strayTrashedFrom(record: ContentRecord, text: string): Problem[] {
  const data = record.source.data
  if (data.trashed_from === undefined || data.status === 'trash') return []
  const message = 'trashed_from is read only while the post is in the trash (status: trash), so it does nothing here'
  return [{ path: record.source.path, line: lineOf(text, 'trashed_from'), message, severity: 'warning' }]
}

/** The line of a top-level key in a file's text (1 when it is not found). */
export function lineOf(text: string, field: string): number {
  const index = text.split('\n').findIndex((line, i) => i > 0 && line.startsWith(`${field}:`))
  return index >= 0 ? index + 1 : 1
}

/** content/.ids.yaml marking the highest id there may be as used: the API could create no record of that space. */
export function exhaustedIdMarks(driver: ContentDriver): Problem[] {
  return exhaustedMarks(driver).map((space) => ({
    path: HIGH_WATER_FILE,
    line: markLine(driver.peek(HIGH_WATER_FILE) ?? '', space),
    message: `${space}: leaves no id for a new ${space === 'post' ? 'event, venue or organizer' : 'category or tag'} (the API answers 409); it keeps the highest id the tree ever used`,
  }))
}

/** The line of the mark the allocation reads: the first `space: <digits>` line (1 when there is none). */
function markLine(text: string, space: string): number {
  const found = new RegExp(`^${space}:\\s*\\d`, 'm').exec(text)
  return found ? text.slice(0, found.index).split('\n').length : 1
}
