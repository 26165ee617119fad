import { checkEvent } from '../content/checks/event-checks.ts'
import { splitFile } from '../content/files/front-matter.ts'
import { updateFrontMatter } from '../content/files/front-matter-write.ts'
import { normalize } from '../content/files/normalize.ts'
import { KEY_ORDER } from '../content/model/kinds.ts'
import type { Lang } from '../languages.ts'
import { expand, keyMatches, readRecurrence, splitOccurrenceId, toWall } from '../content/model/recurrence.ts'
import { checkSource, checkTranslation } from '../content/schema/records.ts'
import type { ContentRecord, FileWrite, Store } from '../content/store.ts'
import { invalidParam, invalidParams, type ParamIssue } from '../errors.ts'

// A series' `recurrence` as a write sends it, checked as a content file is (docs/series-writes.md):
// the schema's shape, then the rule and dates in plain words; a refusal is 400 naming `recurrence`.

/** An event the schema takes, to check a `recurrence` value alone. */
/** Where a rule sent is tried before it is written: a start and a horizon a few years apart. */
const TRIAL_START = '2026-01-01 09:00:00'
const TRIAL_HORIZON = '2029-01-01 00:00:00'
const SAMPLE = { id: 1, title: 'x', start_date: '2000-01-01 00:00:00', end_date: '2000-01-01 00:00:00' }
/** Parts of a series' answer's `recurrence` that are worked out, not written: a client may send them back. */
const WORKED_OUT = ['next', 'count']

/**
 * The `recurrence` a write sends, as the series' file holds it: an object `{rrule, rdate, exdate}` (a text is
 * the RRULE alone); null or '' (undefined here) turns a series back into a single event.
 */
export function recurrenceOf(sent: unknown): Record<string, unknown> | null {
  if (sent === null || sent === '') return null
  if (typeof sent === 'string') return checked({ rrule: sent })
  if (typeof sent !== 'object' || Array.isArray(sent))
    throw invalidParam('recurrence', 'recurrence: takes an object {rrule, rdate, exdate}, or an RRULE as text')
  const value: Record<string, unknown> = { ...sent }
  for (const key of WORKED_OUT) delete value[key]
  if (value.rrule === '') delete value.rrule
  return checked(value)
}

function checked(value: Record<string, unknown>): Record<string, unknown> {
  const shape = checkSource('events', { ...SAMPLE, recurrence: value })
  if (shape.length > 0) throw invalidParam('recurrence', shape.join('; '))
  const { recurrence, problems } = readRecurrence(value)
  if (problems.length === 0 && recurrence.rrule !== undefined) {
    // A rule ical.js reads but gives up on once it iterates (WEEKLY with BYMONTHDAY) is refused, not half served.
    const { stopped } = expand({ rrule: recurrence.rrule, rdate: [], exdate: [] }, TRIAL_START, 'UTC', TRIAL_HORIZON)
    if (stopped !== undefined) problems.push(stopped)
  }
  if (problems.length > 0) throw invalidParam('recurrence', problems.join('; '))
  const written: Record<string, unknown> = {}
  if (recurrence.rrule !== undefined) written.rrule = recurrence.rrule
  if (recurrence.rdate.length > 0) written.rdate = recurrence.rdate.map(tidyDate)
  if (recurrence.exdate.length > 0) written.exdate = recurrence.exdate.map(tidyDate)
  return written
}

/** A bare date as it is; a date and time as `YYYY-MM-DD HH:MM:SS`. */
const tidyDate = (date: string): string => (date.length === 10 ? date : toWall(date))

/**
 * Refuses a series write whose files would not load: the source as `almanac check` reads it (in the site's zone
 * `siteZone` when it names none), and each translation's overrides. 400 names the fields the problems are about
 * (an override's field by its name).
 */
export function refuseInvalidSeries(
  files: Partial<Record<Lang, FileWrite | null>>,
  sourceLang: Lang,
  siteZone: string,
): void {
  const problems: string[] = []
  for (const [lang, file] of Object.entries(files) as [Lang, FileWrite | null][]) {
    if (!file) continue
    if (lang === sourceLang)
      problems.push(...checkSource('events', file.data), ...checkEvent('events', file.data, siteZone))
    else if (file.data.overrides !== undefined)
      problems.push(...checkTranslation('events', { overrides: file.data.overrides }))
  }
  if (problems.length === 0) return
  const issues: Record<string, ParamIssue> = {}
  for (const problem of problems) {
    const field = /^(?:overrides\.(?:"[^"]*"|[^.]+)\.)?([a-z_]+)/.exec(problem)?.[1] ?? 'recurrence'
    issues[field] = { message: issues[field] ? `${issues[field].message}; ${problem}` : problem }
  }
  throw invalidParams(issues)
}

/**
 * A series turned back into a single event: its translations' overrides go too. A translation file left with
 * nothing (an occurrence write in another language makes one holding only overrides) goes with them.
 */
export function withoutTranslationOverrides(
  store: Store,
  record: ContentRecord,
  files: Partial<Record<Lang, FileWrite | null>>,
): Partial<Record<Lang, FileWrite | null>> {
  const out = { ...files }
  for (const [lang, file] of record.files) {
    if (file === record.source || file.data.overrides === undefined) continue
    const planned = out[lang] === undefined ? { data: file.data, body: file.body } : out[lang]
    if (planned === null) continue
    const { overrides: _dropped, ...data } = planned.data
    out[lang] = translationWrite(data, planned.body, store.textOf(file.path))
  }
  return out
}

/**
 * A translation file's write once overrides left it: none (the file goes) when nothing else would be in it, not
 * even a comment of its front matter (`text`, the file as it is: a translator's `# title: …` kept for later stays).
 * What would be left is what the store's writer makes of `text` (src/content/store/commit.ts), which keeps the
 * comments of the keys it keeps and drops those inside the ones it removes.
 */
export function translationWrite(data: Record<string, unknown>, body: string, text = ''): FileWrite | null {
  if (Object.keys(data).length > 0 || body.trim() !== '') return { data, body }
  const left =
    text === '' ? '' : (splitFile(updateFrontMatter(text, data, body, KEY_ORDER.events, normalize))?.block ?? '')
  return left.trim() === '' ? null : { data, body }
}

/** The series whose `exdate` excludes the occurrence an id names, if the id names one. */
export function excludedBy(store: Store, id: number): ContentRecord | undefined {
  const split = splitOccurrenceId(id)
  const series = split && store.get('events', split.series)
  if (!series || series.series || series.source.data.recurrence === undefined) return undefined
  const { recurrence } = readRecurrence(series.source.data.recurrence as Record<string, unknown>)
  return recurrence.exdate.some((key) => keyMatches(key, split.start)) ? series : undefined
}
