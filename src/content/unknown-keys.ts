import { RECORD_NOUN, SOURCE_SCHEMAS } from '../schema/records.ts'
import { andList, orList, showKey } from '../schema/show.ts'
import { TRANSLATABLE, type Kind } from './kinds.ts'

// Front-matter keys the store does not read are warnings, not errors: the record still loads, and
// the editor learns that `venu:` was ignored (and that `venue` was probably meant).

/** At most this many unknown keys of one file are named; the rest are counted. */
const MAX_NAMED = 10

/** Whether a file is its record's source (every field) or a translation (translated fields only). */
export type FileRole = 'source' | 'translation'

const SOURCE_KEYS = new Map<Kind, string[]>()

/** The keys a source file of `kind` may hold: its schema's properties. */
export function sourceKeys(kind: Kind): string[] {
  let keys = SOURCE_KEYS.get(kind)
  if (!keys) SOURCE_KEYS.set(kind, (keys = Object.keys((SOURCE_SCHEMAS[kind] as { properties: object }).properties)))
  return keys
}

/** The keys a translation file of `kind` may hold (its body is the translated description). */
export function translationKeys(kind: Kind): string[] {
  return TRANSLATABLE[kind].filter((key) => key !== 'description')
}

/** The fields of a translation that are checked and read: the translatable ones. */
export function translatedFields(kind: Kind, data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([key]) => TRANSLATABLE[kind].includes(key)))
}

/** One warning per key of `data` that a file of this role does not use. */
export function unknownKeyWarnings(kind: Kind, data: Record<string, unknown>, role: FileRole): string[] {
  const known = role === 'source' ? sourceKeys(kind) : [...translationKeys(kind), 'description']
  const unknown = Object.keys(data).filter((key) => !known.includes(key) && !(role === 'translation' && key === 'id'))
  const warnings = unknown.slice(0, MAX_NAMED).map((key) => unknownKeyWarning(kind, key, role))
  if (unknown.length > MAX_NAMED) warnings.push(`${unknown.length - MAX_NAMED} more fields are not fields of ${RECORD_NOUN[kind]} and are ignored`)
  return warnings
}

function unknownKeyWarning(kind: Kind, key: string, role: FileRole): string {
  const noun = RECORD_NOUN[kind]
  if (role === 'translation' && sourceKeys(kind).includes(key)) {
    return `${key}: not translated, so it is ignored here and the source file's ${key} is used; a translation of ${noun} holds ${andList([...translationKeys(kind), 'the body'])}`
  }
  const suggestions = closestKeys(key, role === 'source' ? sourceKeys(kind) : translationKeys(kind))
  const where = role === 'source' ? noun : `a translation of ${noun}`
  const hint = suggestions.length > 0 ? `; did you mean ${orList(suggestions)}?` : ''
  return `${showKey(key)}: not a field of ${where}, so it is ignored${hint}`
}

/** The known keys nearest to `key`, when one is near enough to be what was meant. */
export function closestKeys(key: string, known: readonly string[]): string[] {
  const typed = canonical(key)
  let best = Infinity
  let found: string[] = []
  for (const candidate of known) {
    const distance = editDistance(typed, canonical(candidate), 2)
    if (distance > (candidate.length <= 4 ? 1 : 2) || distance > best) continue
    if (distance < best) found = []
    best = distance
    found.push(candidate)
  }
  return found
}

/** Case and `-`/space for `_` are the commonest slips: they cost nothing. */
function canonical(key: string): string {
  return key.toLowerCase().replace(/[- ]/g, '_')
}

/**
 * Edits (insert, delete, replace, swap two neighbours) from `a` to `b`; anything above `limit` is
 * `limit + 1`, found without the full table when the lengths alone say so (keys may be huge).
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1
  let before: number[] = []
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, before[j - 2]! + 1)
    }
    before = previous
    previous = row
  }
  return Math.min(previous[b.length]!, limit + 1)
}
