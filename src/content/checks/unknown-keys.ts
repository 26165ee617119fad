import { RECORD_NOUN, SOURCE_SCHEMAS } from '../schema/records.ts'
import { andList, orList, showKey } from '../schema/show.ts'
import { closestKeys } from '../../suggest.ts'
import { TRANSLATABLE, type Kind } from '../model/kinds.ts'

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
  const keys = TRANSLATABLE[kind].filter((key) => key !== 'description')
  // A series' translation may change single occurrences too (docs/recurrence.md).
  return kind === 'events' ? [...keys, 'overrides'] : keys
}

/** The fields of a translation that are checked and read: the translatable ones, in the file's order. */
export function translatedFields(kind: Kind, data: Record<string, unknown>): Record<string, unknown> {
  const keys = keySet(TRANSLATED_SETS, kind, () => [...TRANSLATABLE[kind], ...(kind === 'events' ? ['overrides'] : [])])
  const fields: Record<string, unknown> = {}
  for (const key of Object.keys(data)) if (keys.has(key)) fields[key] = data[key]
  return fields
}

const USED = {
  source: new WeakMap<object, Record<string, unknown>>(),
  translation: new WeakMap<object, Record<string, unknown>>(),
}

/**
 * `data` without the keys a file of this role does not use: what is served of it. Unknown keys are warned of and
 * ignored, but a file from a stranger may hold tens of thousands (front matter is read up to 512 KiB), and every
 * answer that showed the record, and every occurrence of a series, copied them all (seconds a list page, and
 * ~25 s to load one such series). Kept per data object (a file's data is never changed once read); the object itself
 * when every key is known, as nearly always.
 */
export function usedFields(kind: Kind, data: Record<string, unknown>, role: FileRole): Record<string, unknown> {
  const kept = USED[role].get(data)
  if (kept) return kept
  const known = knownKeys(kind, role)
  const keys = Object.keys(data)
  let used = data
  if (keys.some((key) => !known.has(key))) {
    used = {}
    for (const key of keys) if (known.has(key)) used[key] = data[key]
  }
  USED[role].set(data, used)
  return used
}

/** The keys a file of this role may hold: its schema's, or a translation's (with `description` and `id`). */
function knownKeys(kind: Kind, role: FileRole): ReadonlySet<string> {
  return role === 'source'
    ? keySet(SOURCE_SETS, kind, () => sourceKeys(kind))
    : keySet(TRANSLATION_SETS, kind, () => [...translationKeys(kind), 'description', 'id'])
}

/** One warning per key of `data` that a file of this role does not use. */
export function unknownKeyWarnings(kind: Kind, data: Record<string, unknown>, role: FileRole): string[] {
  // A file's id is its source's business: a translation holding one is reported elsewhere.
  const known = knownKeys(kind, role)
  // Every file of a tree is checked at each load: a clean one (nearly all) makes nothing.
  let unknown: string[] | undefined
  for (const key of Object.keys(data)) if (!known.has(key)) (unknown ??= []).push(key)
  if (!unknown) return []
  const warnings = unknown.slice(0, MAX_NAMED).map((key) => unknownKeyWarning(kind, key, role))
  if (unknown.length > MAX_NAMED)
    warnings.push(`${unknown.length - MAX_NAMED} more fields are not fields of ${RECORD_NOUN[kind]} and are ignored`)
  return warnings
}

const SOURCE_SETS = new Map<Kind, ReadonlySet<string>>()
const TRANSLATION_SETS = new Map<Kind, ReadonlySet<string>>()
const TRANSLATED_SETS = new Map<Kind, ReadonlySet<string>>()

/** A kind's set of keys in `sets`, made the first time it is asked for. */
function keySet(sets: Map<Kind, ReadonlySet<string>>, kind: Kind, keys: () => readonly string[]): ReadonlySet<string> {
  let set = sets.get(kind)
  if (!set) sets.set(kind, (set = new Set(keys())))
  return set
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
