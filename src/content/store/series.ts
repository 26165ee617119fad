import { occurrencesOf } from '../model/occurrence.ts'
import { type ContentRecord, isSeries, keyOf } from '../model/record-types.ts'
import { type Expansion, expand, horizonAt, keyMatches, readRecurrence, SERIES_LIMITS } from '../model/recurrence.ts'
import type { StoreState } from './state.ts'

/** A change to tell: a record as it was and as it is. */
export type Change = [ContentRecord | undefined, ContentRecord | undefined]

/**
 * Serves the occurrences of the record now under `key` (none when it is no series, or no longer
 * served) in place of those it had, and returns their changes, paired by id.
 */
export function serveOccurrences(state: StoreState, key: string, record: ContentRecord | undefined): Change[] {
  for (const file of record?.files.values() ?? []) state.problems.forget(file.path, isExpansionMessage)
  const before = state.catalogue.occurrencesOf(key)
  const after = record && isSeries(record) ? occurrencesNow(state, record) : []
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
 * What occurrencesNow tells of an expansion: told anew each time the series is expanded (a moved
 * horizon reaches an override, names another date), so the last expansion's are forgotten first.
 */
const EXPANSION_MESSAGES = [
  /^recurrence\.rrule: open-ended; occurrences are served up to /,
  /^recurrence: more than \d+ occurrences; /,
  /^recurrence\.exdate: .* excludes no occurrence$/,
  /^overrides: .* changes no occurrence$/,
  /; the series serves no occurrence$/,
]
const isExpansionMessage = (message: string) => EXPANSION_MESSAGES.some((pattern) => pattern.test(message))

/** The series' starts up to the store's horizon; an Error when its rule cannot be iterated. */
function expansionOf(state: StoreState, series: ContentRecord): Expansion | Error {
  try {
    return expandSeries(state, series)
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error))
  }
}

function expandSeries(state: StoreState, series: ContentRecord): Expansion {
  const data = series.source.data
  const zone = typeof data.timezone === 'string' && data.timezone !== '' ? data.timezone : state.rules.timezone
  const { recurrence } = readRecurrence(data.recurrence as Record<string, unknown>)
  const first = String(data.start_date).replace('T', ' ')
  return expand(recurrence, first.length === 16 ? `${first}:00` : first, zone, state.horizon.at)
}

/** The series' occurrences up to the store's horizon; what the rule or its dates leave unused is a warning. */
function occurrencesNow(state: StoreState, series: ContentRecord): ContentRecord[] {
  const expansion = expansionOf(state, series)
  const path = series.source.path
  if (expansion instanceof Error) {
    // A rule the parser took but the iterator refuses (BYDAY=9MO): told, and no occurrence served.
    const message = `recurrence.rrule: ${expansion.message}; the series serves no occurrence`
    state.problems.report(path, [message], state.texts.get(path))
    return []
  }
  const warnings: string[] = []
  if (expansion.openEnded)
    warnings.push(
      `recurrence.rrule: open-ended; occurrences are served up to ${state.horizon.at.slice(0, 10)}, and further as time goes on`,
    )
  if (expansion.cut)
    warnings.push(
      `recurrence: more than ${SERIES_LIMITS.occurrences} occurrences; only the ${SERIES_LIMITS.occurrences} latest are served`,
    )
  for (const date of expansion.unmatched) warnings.push(`recurrence.exdate: ${date} excludes no occurrence`)
  if (warnings.length > 0) state.problems.warn(path, warnings, state.texts.get(path))
  for (const file of series.files.values()) {
    const keys = Object.keys((file.data.overrides as object | undefined) ?? {})
    const unused = keys.filter((k) => !expansion.starts.some((start) => keyMatches(k, start)))
    const messages = unused.map((override) => `overrides: ${override} changes no occurrence`)
    if (messages.length > 0) state.problems.warn(file.path, messages, state.texts.get(file.path))
  }
  return occurrencesOf(series, expansion.starts)
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
