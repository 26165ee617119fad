import type { Problem } from './checks/problems.ts'
import { NAME_FIELD } from './model/kinds.ts'
import { statusIn } from './model/post-state.ts'
import type { ContentRecord } from './model/record-types.ts'
import { slugify } from './slugs.ts'

/**
 * A source without a slug is served with an empty one: no by-slug address, and a `url` in WordPress's `?p=` form.
 * Normal for a draft (WordPress gives a slug on publishing); for any other status, something an editor forgot.
 */
export function missingSlugWarning(record: ContentRecord): Problem[] {
  const { data } = record.source
  if (record.series || (data.slug !== undefined && data.slug !== null && data.slug !== '')) return []
  if (['draft', 'pending', 'trash'].includes(statusIn(data))) return []
  const made = slugify(String(data[NAME_FIELD[record.kind]] ?? ''))
  const suggestion =
    made === '' ? '' : ` (slug: ${made}, made from its ${NAME_FIELD[record.kind]} as the API makes one)`
  const message = `slug is not set, so it is served with an empty slug and has no by-slug address: add one${suggestion}`
  return [{ path: record.source.path, line: 1, message, severity: 'warning' }]
}
