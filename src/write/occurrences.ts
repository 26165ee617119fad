import { KEY_ORDER } from '../content/model/kinds.ts'
import { OVERRIDABLE, OVERRIDABLE_IN_TRANSLATION } from '../content/model/occurrence.ts'
import { keyMatches } from '../content/model/recurrence.ts'
import type { ContentRecord, FileWrite, Store } from '../content/store.ts'
import { apiError, invalidParams } from '../errors.ts'
import type { Lang } from '../languages.ts'
import type { Changes } from './changes.ts'
import { eventChanges } from './events.ts'
import { modifiedAfter } from './linked.ts'
import { refuseInvalidSeries, translationWrite } from './series.ts'
import type { WriteContext } from './transaction.ts'

// Writes to one occurrence of a series (docs/series-writes.md): an override in the series' files, keyed by
// the occurrence's original start, or its exclusion. The occurrence itself has no file of its own.

type Files = Partial<Record<Lang, FileWrite>>
type Data = Record<string, unknown>

/** Arguments an occurrence write may send besides the fields it overrides. */
const NOT_FIELDS = new Set(['id'])
/** An override's fields in the order files list an event's, its description last. */
const FIELD_ORDER = [...KEY_ORDER.events, 'description']
const LISTS = new Set(['venue', 'organizer', 'categories', 'tags'])

/**
 * PATCH of an occurrence: its fields sent become the override of that occurrence alone (the other fields
 * of an event are the series', 400 naming them). Translatable fields sent in a language other than the
 * series' source's go to that language's file. An occurrence of a trashed series is 410: the series is
 * restored by updating it. Returns the occurrence as it is now.
 */
export async function overrideOccurrence(
  occurrence: ContentRecord,
  params: Record<string, unknown>,
  given: Set<string>,
  ctx: WriteContext,
): Promise<ContentRecord> {
  const refused = [...given].filter(
    (field) => !NOT_FIELDS.has(field) && !(OVERRIDABLE as readonly string[]).includes(field),
  )
  if (occurrence.source.data.status === 'trash') throw apiError('event-is-in-trash')
  if (refused.length > 0) throw notOverridable(refused)
  const { parent: series, start } = occurrence.series!
  const changes = await eventChanges(params, given, ctx, occurrence)
  const key = occurrenceKey(ctx.store, series, start)
  const modified = modifiedAfter(ctx, series.source.data.modified)
  const files = planOverride(series, ctx.lang, key, overrideFields(changes, occurrence), modified)
  refuseInvalidSeries(files, series.source.lang, ctx.site.timezone)
  await ctx.tx.commit('events', series.stem, files)
  return ctx.store.get('events', occurrence.id) ?? occurrence
}

/**
 * DELETE of an occurrence: its key joins the series' `recurrence.exdate` and its overrides go, in every
 * language. Returns the series as it is now.
 */
export async function excludeOccurrence(occurrence: ContentRecord, ctx: WriteContext): Promise<void> {
  const { parent: series, start } = occurrence.series!
  const key = occurrenceKey(ctx.store, series, start)
  const files: Partial<Record<Lang, FileWrite | null>> = {}
  for (const [lang, file] of series.files) {
    const overrides = withoutOverridesOf(file.data.overrides, start, key)
    if (file !== series.source && overrides === file.data.overrides) continue
    const data: Data = { ...file.data, overrides }
    if (overrides === undefined) delete data.overrides
    if (file === series.source) {
      const recurrence = { ...(data.recurrence as Data) }
      recurrence.exdate = [...new Set([...toList(recurrence.exdate), key])].sort()
      Object.assign(data, { recurrence, modified: modifiedAfter(ctx, data.modified) })
    }
    files[lang] =
      file === series.source
        ? { data, body: file.body }
        : translationWrite(data, file.body, ctx.store.textOf(file.path))
  }
  refuseInvalidSeries(files, series.source.lang, ctx.site.timezone)
  await ctx.tx.commit('events', series.stem, files)
}

/**
 * The key that names an occurrence in `overrides` and `exdate`: the local day of its original start when it
 * is the series' only occurrence that day, else the wall clock. An override already written under the
 * wall clock keeps it.
 */
export function occurrenceKey(store: Store, series: ContentRecord, start: string): string {
  const written = Object.keys((series.source.data.overrides as Data | undefined) ?? {})
  if (written.some((key) => key.length > 10 && keyMatches(key, start))) return start
  const day = start.slice(0, 10)
  const sameDay = store.occurrencesOf(series).filter((other) => other.series!.start.startsWith(day))
  return sameDay.length > 1 ? start : day
}

/** 400 naming the fields an occurrence cannot have of its own. */
function notOverridable(fields: string[]): Error {
  const message = 'belongs to the whole series; an occurrence changes only its own dates, text, links and flags'
  return invalidParams(Object.fromEntries(fields.map((field) => [field, { message: `${field} ${message}` }])))
}

/**
 * The override's fields from the write's changes: both dates whenever one moves (an override with a start
 * alone would keep the series' length), and emptied fields as empty values (a file's override cannot hold null).
 */
function overrideFields(changes: Changes, occurrence: ContentRecord): Data {
  const fields: Data = {}
  for (const field of OVERRIDABLE) {
    if (!(field in changes)) continue
    const value = changes[field]
    fields[field] = value !== null ? value : LISTS.has(field) ? [] : ''
  }
  if (fields.start_date !== undefined || fields.end_date !== undefined) {
    fields.start_date ??= occurrence.source.data.start_date
    fields.end_date ??= occurrence.source.data.end_date
  }
  return fields
}

/** The series' files with the override of `key` changed: translatable fields in `lang`'s file when it is not the source's. */
function planOverride(series: ContentRecord, lang: Lang, key: string, fields: Data, modified: string): Files {
  const source = series.source
  const translated = lang !== source.lang
  const own: Data = {}
  const theirs: Data = {}
  for (const [field, value] of Object.entries(fields))
    ((OVERRIDABLE_IN_TRANSLATION as readonly string[]).includes(field) && translated ? theirs : own)[field] = value
  const files: Files = {
    [source.lang]: {
      data: { ...source.data, modified, overrides: merged(source.data.overrides, key, own) },
      body: source.body,
    },
  }
  if (translated && Object.keys(theirs).length > 0) {
    const file = series.files.get(lang)
    const data = file?.data ?? {}
    files[lang] = { data: { ...data, overrides: merged(data.overrides, key, theirs) }, body: file?.body ?? '' }
  }
  return files
}

/** `overrides` with `fields` written over the entry of `key`: entries by date, fields in the files' order. */
function merged(overrides: unknown, key: string, fields: Data): Data | undefined {
  const all: Data = { ...((overrides as Data | undefined) ?? {}) }
  const entry: Data = { ...((all[key] as Data | undefined) ?? {}), ...fields }
  if (Object.keys(entry).length > 0) all[key] = sortedBy(entry, (a, b) => rank(a) - rank(b))
  const sorted = sortedBy(all, (a, b) => (a < b ? -1 : a > b ? 1 : 0))
  return Object.keys(sorted).length > 0 ? sorted : undefined
}

/** `overrides` without the entries that name only the occurrence starting at `start` (undefined when none is left). */
function withoutOverridesOf(overrides: unknown, start: string, key: string): unknown {
  if (overrides === undefined || overrides === null || typeof overrides !== 'object') return overrides
  const entries = Object.entries(overrides)
  const kept = entries.filter(([written]) => !(written === key || (written.length > 10 && keyMatches(written, start))))
  if (kept.length === entries.length) return overrides
  return kept.length > 0 ? Object.fromEntries(kept) : undefined
}

const rank = (field: string) => FIELD_ORDER.indexOf(field)

function sortedBy(data: Data, compare: (a: string, b: string) => number): Data {
  return Object.fromEntries(
    Object.keys(data)
      .sort(compare)
      .map((key) => [key, data[key]]),
  )
}

const toList = (value: unknown): string[] =>
  value === undefined ? [] : Array.isArray(value) ? value.map(String) : [String(value)]
