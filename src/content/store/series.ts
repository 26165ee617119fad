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

/** The series' occurrences up to the store's horizon; what the rule or its dates leave unused is a warning. */
function occurrencesNow(state: StoreState, series: ContentRecord): ContentRecord[] {
  const data = series.source.data
  const zone = typeof data.timezone === 'string' && data.timezone !== '' ? data.timezone : state.rules.timezone
  const { recurrence } = readRecurrence(data.recurrence as Record<string, unknown>)
  const first = toWall(String(data.start_date))
  const expansion = expand(recurrence, first, zone, state.horizon.at)
  const path = series.source.path
  const warnings = ruleWarnings(state, recurrence.rrule !== undefined, expansion)
  if (warnings.length > 0) state.problems.warn(path, warnings, state.texts.get(path))
  for (const file of series.files.values()) {
    const keys = Object.keys((file.data.overrides as object | undefined) ?? {})
    const messages = keys.flatMap((key) => overrideWarning(key, expansion, first))
    if (messages.length > 0) state.problems.warn(file.path, messages, state.texts.get(file.path))
  }
  return occurrencesOf(series, expansion.starts)
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

/** The warnings this file gives (told again each time a series settles: the horizon in them moves). */
function isSeriesWarning(message: string): boolean {
  return (
    message.startsWith(OPEN_ENDED) ||
    /^recurrence(\.rrule)?: more than \d+ occurrences/.test(message) ||
    /^recurrence\.exdate: .* excludes no occurrence$/.test(message) ||
    /^overrides: .* (changes no occurrence|it changes none)$/.test(message)
  )
}

/**
 * Moves the horizon of open-ended rules to where the clock says it is now; when it moved, every
 * series is settled again (its occurrences up to the new horizon). Returns whether it moved.
 */
export function moveHorizon(state: StoreState, settleAgain: (key: string) => void): boolean {
  const at = horizonAt(state.horizon.now())
  if (at === state.horizon.at) return false
  state.horizon.at = at
  for (const series of state.catalogue.list('events').filter(isSeries)) settleAgain(keyOf(series))
  return true
}
