import { usedFields } from '../checks/unknown-keys.ts'
import { occurrencesOf } from '../model/occurrence.ts'
import { type ContentRecord, isSeries, keyOf } from '../model/record-types.ts'
import {
  type Expansion,
  expand,
  horizonAt,
  keyMatches,
  readRecurrence,
  SERIES_LIMITS,
  toWall,
} from '../model/recurrence.ts'
import type { StoreState } from './state.ts'

/** A change to tell: a record as it was and as it is. */
export type Change = [ContentRecord | undefined, ContentRecord | undefined]

/**
 * Serves the occurrences of the record now under `key` (none when it is no series, or no longer
 * served) in place of those it had, and returns their changes, paired by id.
 */
export function serveOccurrences(state: StoreState, key: string, record: ContentRecord | undefined): Change[] {
  const before = state.catalogue.occurrencesOf(key)
  for (const file of state.catalogue.filesOf(key)) state.problems.forget(file.path, isSeriesWarning)
  const after =
    record && isSeries(record) ? withinTotal(state, record, before.length, occurrencesNow(state, record)) : []
  if (before.length === 0 && after.length === 0) return []
  state.catalogue.serveOccurrences(key, after)
  const was = new Map(before.map((occurrence) => [occurrence.id, occurrence]))
  const changes: Change[] = after.map((occurrence) => {
    const old = was.get(occurrence.id)
    was.delete(occurrence.id)
    return [old, occurrence]
  })
  for (const old of was.values()) changes.push([old, undefined])
  return changes
}

/**
 * A series' occurrences, or none (an error on its file) when they would take the store past
 * the store's limit (SERIES_LIMITS.total). The series itself is still served; it is expanded again when it next settles.
 */
function withinTotal(state: StoreState, series: ContentRecord, had: number, occurrences: ContentRecord[]) {
  const others = state.catalogue.occurrenceTotal() - had
  if (others + occurrences.length <= state.rules.maxOccurrences) return occurrences
  const path = series.source.path
  const message = `recurrence: the calendar serves at most ${state.rules.maxOccurrences} occurrences in all, and this series' ${occurrences.length} would pass it; ${NOTHING_SERVED}`
  state.problems.report(path, [message], state.texts.get(path))
  return []
}

/** The series' starts up to the store's horizon; an Error when its rule cannot be iterated. */
function expansionOf(state: StoreState, series: ContentRecord): Expansion | Error {
  const data = series.source.data
  const zone = typeof data.timezone === 'string' && data.timezone !== '' ? data.timezone : state.rules.timezone
  const { recurrence } = readRecurrence(data.recurrence as Record<string, unknown>)
  try {
    return expand(recurrence, toWall(String(data.start_date)), zone, state.horizon.at)
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error))
  }
}

/** The series' occurrences up to the store's horizon; what the rule or its dates leave unused is a warning. */
function occurrencesNow(state: StoreState, series: ContentRecord): ContentRecord[] {
  const expansion = expansionOf(state, series)
  const path = series.source.path
  if (expansion instanceof Error) {
    // A rule the parser took but the iterator refuses (BYDAY=9MO): told, and no occurrence served.
    const message = `recurrence.rrule: ${expansion.message}; ${NOTHING_SERVED}`
    state.problems.report(path, [message], state.texts.get(path))
    return []
  }
  const first = toWall(String(series.source.data.start_date))
  const ruled = (series.source.data.recurrence as { rrule?: unknown }).rrule !== undefined
  const warnings = ruleWarnings(state, ruled, expansion)
  if (expansion.stopped !== undefined) warnings.push(`${expansion.stopped}; ${STOPPED}`)
  if (expansion.starts.length === 0)
    warnings.push(
      `${first < '1970' ? 'start_date: before 1970, where no occurrence is served' : 'recurrence.exdate: every occurrence is excluded'}; ${NOTHING_SERVED}`,
    )
  if (warnings.length > 0) state.problems.warn(path, warnings, state.texts.get(path))
  for (const file of series.files.values()) {
    const keys = Object.keys((file.data.overrides as object | undefined) ?? {})
    const messages = keys.flatMap((key) => overrideWarning(key, expansion, first))
    if (messages.length > 0) state.problems.warn(file.path, messages, state.texts.get(file.path))
  }
  return occurrencesOf(series, expansion.starts, (file, own) =>
    usedFields('events', file.data, own ? 'source' : 'translation'),
  )
}

/** Warnings about the rule and its dates; each names the key it is about (recurrence.rrule, recurrence.exdate). */
function ruleWarnings(state: StoreState, ruled: boolean, expansion: Expansion): string[] {
  const warnings: string[] = []
  const field = ruled ? 'recurrence.rrule' : 'recurrence'
  if (expansion.openEnded)
    warnings.push(
      `${OPEN_ENDED} occurrences are served up to ${state.horizon.at.slice(0, 10)}, and further as time goes on`,
    )
  if (expansion.cut)
    warnings.push(
      `${field}: more than ${SERIES_LIMITS.occurrences} occurrences; only the ${SERIES_LIMITS.occurrences} latest are served`,
    )
  for (const date of expansion.unmatched) warnings.push(`recurrence.exdate: ${date} excludes no occurrence`)
  return warnings
}

/**
 * An override key that names no occurrence served: none at all, or (in a series cut to its latest
 * 1,000) one that may be before the first one served.
 */
function overrideWarning(key: string, expansion: Expansion, seriesStart: string): string[] {
  if (expansion.starts.some((start) => keyMatches(key, start))) return []
  const served = expansion.starts[0]
  if (expansion.cut && served !== undefined && toWall(key) < served && key >= seriesStart.slice(0, 10))
    return [`overrides: ${key} is before the first occurrence served (${served.slice(0, 10)}); it changes none`]
  return [`overrides: ${key} changes no occurrence`]
}

const OPEN_ENDED = 'recurrence.rrule: open-ended;'
const NOTHING_SERVED = 'the series serves no occurrence'
const STOPPED = 'later occurrences are not served'

/** The warnings this file gives (told again each time a series settles: the horizon in them moves). */
function isSeriesWarning(message: string): boolean {
  return (
    message.startsWith(OPEN_ENDED) ||
    /^recurrence(\.rrule)?: more than \d+ occurrences/.test(message) ||
    /^recurrence\.exdate: .* excludes no occurrence$/.test(message) ||
    /^overrides: .* (changes no occurrence|it changes none)$/.test(message) ||
    message.endsWith(NOTHING_SERVED) ||
    message.endsWith(STOPPED)
  )
}

/**
 * Moves the horizon of open-ended rules to where the clock says it is now; when it moved, every
 * series it changes (open-ended, or with dates past the old horizon) is settled again, up to the new
 * one; a series it does not change is left alone, untold. Returns whether it moved.
 */
export function moveHorizon(state: StoreState, settleAgain: (key: string) => void): boolean {
  const at = horizonAt(state.horizon.now())
  if (at === state.horizon.at) return false
  state.horizon.at = at
  for (const series of state.catalogue.list('events').filter(isSeries)) {
    const served = state.catalogue.occurrencesOf(keyOf(series)).map((occurrence) => occurrence.series?.start)
    const expansion = expansionOf(state, series)
    if (expansion instanceof Error) continue
    if (expansion.openEnded || expansion.starts.join() !== served.join()) settleAgain(keyOf(series))
  }
  return true
}
