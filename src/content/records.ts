import { isTimeZone, isWallClock } from '../time/zone.ts'
import type { Kind } from './kinds.ts'
import type { FileEntry } from './store.ts'

const TEXT_FIELDS = new Set([
  'slug', 'excerpt', 'address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'stateprovince',
  'password', 'description',
])
const ID_LISTS = new Set(['venue', 'organizer', 'categories', 'tags'])

/** Groups entries by record and hands each group over in path order, so the first file of a duplicate id wins. */
export function loadAll(entries: Map<string, FileEntry>, each: (kind: Kind, stem: string, files: FileEntry[]) => void) {
  const groups = new Map<string, FileEntry[]>()
  for (const entry of [...entries.values()].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    const key = `${entry.path.split('/')[0]}/${stemOf(entry.path)}`
    const group = groups.get(key)
    if (group) group.push(entry)
    else groups.set(key, [entry])
  }
  for (const [key, files] of groups) {
    const [kind, stem] = key.split('/') as [Kind, string]
    each(kind, stem, files)
  }
}

export function stemOf(path: string): string {
  return path.slice(path.indexOf('/') + 1).split('.')[0]!
}

/** Hand-written YAML gives numbers where text is meant (`zip: 12345`) and single ids where lists are meant. */
export function normalize(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(data)) {
    if (TEXT_FIELDS.has(key) && typeof value === 'number') out[key] = String(value)
    else if (ID_LISTS.has(key) && typeof value === 'number') out[key] = [value]
    else out[key] = value
  }
  return out
}

/** Event checks the schema cannot express: a real time zone, real dates, and an end after the start. */
export function checkEvent(kind: Kind, data: Record<string, unknown>): string[] {
  if (kind !== 'events') return []
  const problems: string[] = []
  if (typeof data.timezone === 'string' && !isTimeZone(data.timezone)) {
    problems.push(`timezone "${data.timezone}" is not an IANA time zone`)
  }
  const start = String(data.start_date)
  const end = String(data.end_date)
  if (!isWallClock(start)) problems.push('start_date is not a real date')
  if (!isWallClock(end)) problems.push('end_date is not a real date')
  // Wall clocks of one zone compare as text: YYYY-MM-DD HH:MM:SS sorts in time order.
  if (problems.length === 0 && end.replace('T', ' ') < start.replace('T', ' ')) problems.push('end_date is before start_date')
  return problems
}
