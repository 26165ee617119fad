import { instantToWall, isWallClock, WALL_CLOCK } from '../../time/zone.ts'
import { icalWall, iterateRule, keepsImpliedDay, OutOfSteps } from './recurrence-iterator.ts'
import { keepsRule, type Rule, readRule } from './recurrence-rule.ts'

// A series: one source event file whose `recurrence` names its occurrences (docs/recurrence.md). The
// rule is iterated by ical.js in floating time, from the file's start wall clock, so every occurrence
// keeps that wall-clock time in the event's zone across DST; the store turns walls into instants.

/** A series' recurrence as written: an RFC 5545 RRULE, extra dates and excluded dates (wall clocks). */
export interface Recurrence {
  rrule?: string
  rdate: string[]
  exdate: string[]
}

/** What a series may hold at most, and where its occurrences' ids live (docs/recurrence.md, "Ids"). */
export const SERIES_LIMITS = {
  /** Occurrences served per series: a longer one serves those nearest its horizon. */
  occurrences: 1000,
  /**
   * Candidates ical.js may try for one series (each yield or skipped date counts) before the rule is
   * given up: a rule that never or rarely yields, or starts in 1890, ends in bounded work (then `cut`).
   */
  // 5,000 holds the event loop some 40 ms on the worst rules (a write tries a rule, then the store expands
  // it: twice); 20,000 held it 130-160 ms each time.
  steps: 5_000,
  /** Post ids are below this; an occurrence's id is `series id × OCCURRENCE_BASE + minutes since 1970`. */
  base: 1_000_000_000,
  /** The highest series id whose occurrence ids stay exact JavaScript numbers (below 2^53). */
  seriesId: 9_007_198,
  /**
   * Occurrences one store serves in all (some 10 KB of memory each): a few lines of a file make up to
   * 1,000 records, so a tree of many small series from a stranger could otherwise fill the memory.
   */
  total: 200_000,
} as const

/**
 * The span of original starts an occurrence may have: its id counts the minutes from 1970-01-01 00:00 to that
 * wall clock (read as UTC) below SERIES_LIMITS.base, so that no two occurrences of any two series, and no occurrence
 * and post, share an id (docs/recurrence.md, "Ids"). From the first up to, not including, the end.
 */
export const OCCURRENCE_STARTS = {
  first: '1970-01-01 00:00:00',
  end: instantToWall(SERIES_LIMITS.base * 60_000, 'UTC'),
} as const

/** Whether an original start's minutes since 1970 fit an occurrence id (OCCURRENCE_STARTS). */
export function fitsOccurrenceId(start: string): boolean {
  return start >= OCCURRENCE_STARTS.first && start < OCCURRENCE_STARTS.end
}

/** How a series' occurrences were found: their original starts, and what the rule left out. */
export interface Expansion {
  /** The original start of each occurrence (`YYYY-MM-DD HH:MM:SS`), ascending, one per minute at most. */
  starts: string[]
  /** The rule has neither COUNT nor UNTIL: it is generated up to the horizon, which moves. */
  openEnded: boolean
  /**
   * More occurrences than SERIES_LIMITS.occurrences (the earliest were left out), or the rule ran out
   * of SERIES_LIMITS.steps (those after the last served were left out).
   */
  cut: boolean
  /** Excluded dates that match no occurrence. */
  unmatched: string[]
  /** Why the rule stopped before its end (ical.js gave up on it at this start), in plain words. */
  stopped?: string
}

const DATE = /^\d{4}-\d{2}-\d{2}$/

/** `2026-12-01 09:00` and `2026-12-01T09:00:00` → `2026-12-01 09:00:00`. */
export function toWall(text: string): string {
  const wall = text.replace('T', ' ')
  return wall.length === 16 ? `${wall}:00` : wall
}

/** Whether an occurrence key (a date, or a date and time) names the occurrence that starts at `start`. */
export function keyMatches(key: string, start: string): boolean {
  return DATE.test(key) ? start.startsWith(key) : toWall(key) === start
}

/**
 * The exclusions of a series by what they match (`keyMatches`): a date by itself, any other key by its wall clock.
 * Found by a lookup for each start: compared one by one, 1,000 exclusions against a minutely rule's starts held the
 * event loop ~0.25 s in-process (a contributor's write took 0.5–0.75 s).
 */
function exclusionsByMatch(exdate: string[]): Map<string, string[]> {
  const byMatch = new Map<string, string[]>()
  for (const key of exdate) {
    const match = DATE.test(key) ? key : toWall(key)
    const keys = byMatch.get(match)
    if (keys) keys.push(key)
    else byMatch.set(match, [key])
  }
  return byMatch
}

/** The id of the occurrence of series `seriesId` whose original start is the wall clock `start`. */
export function occurrenceId(seriesId: number, start: string): number {
  const m = WALL_CLOCK.exec(start)!
  const minutes = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!) / 60_000
  return seriesId * SERIES_LIMITS.base + minutes
}

/** The series and original start an occurrence id names (undefined for a record id). */
export function splitOccurrenceId(id: number): { series: number; start: string } | undefined {
  if (!Number.isSafeInteger(id) || id < SERIES_LIMITS.base) return undefined
  const minutes = id % SERIES_LIMITS.base
  return { series: (id - minutes) / SERIES_LIMITS.base, start: instantToWall(minutes * 60_000, 'UTC') }
}

/**
 * The horizon of open-ended rules at `now`: the first day of the 26th month after the current one
 * (UTC), always past the default list window's end (24 months ahead). It moves once a month.
 */
export function horizonAt(now: number): string {
  const date = new Date(now)
  const first = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 26, 1))
  return `${first.toISOString().slice(0, 10)} 00:00:00`
}

/**
 * Reads a `recurrence` value as written (its shape already checked by the schema) and what is wrong
 * with its rule and dates, in plain words.
 */
export function readRecurrence(value: Record<string, unknown>): { recurrence: Recurrence; problems: string[] } {
  const list = (v: unknown): string[] => (v === undefined ? [] : Array.isArray(v) ? v.map(String) : [String(v)])
  const recurrence: Recurrence = { rdate: list(value.rdate), exdate: list(value.exdate) }
  if (typeof value.rrule === 'string') recurrence.rrule = value.rrule.replace(/^RRULE:/i, '').trim()
  const problems = [
    ...(recurrence.rrule === undefined ? [] : ruleProblems(recurrence.rrule)),
    ...datesProblems('rdate', recurrence.rdate),
    ...datesProblems('exdate', recurrence.exdate),
  ]
  if (recurrence.rrule === undefined && recurrence.rdate.length === 0)
    problems.push('recurrence: needs an rrule or rdate dates; without them there is no series')
  return { recurrence, problems }
}

function ruleProblems(rule: string): string[] {
  try {
    readRule(rule)
    return []
  } catch (error) {
    const quoted = rule.length > 80 ? `${JSON.stringify(rule.slice(0, 80))}…` : JSON.stringify(rule)
    return [`recurrence.rrule: ${(error as Error).message} in ${quoted}`]
  }
}

function datesProblems(field: string, dates: string[]): string[] {
  return dates
    .filter((date) => !(DATE.test(date) ? isWallClock(`${date} 00:00:00`) : isWallClock(date)))
    .map((date) => `recurrence.${field}: ${JSON.stringify(date)} is not a real date (YYYY-MM-DD) or date and time`)
}

/**
 * The occurrences of a series whose first one starts at the wall clock `first` in `zone`: the rule's
 * (the first always among them, as RFC 5545 has DTSTART), the extra dates (a bare date takes the
 * first's time), less the excluded ones (a bare date excludes that whole day), up to `horizon`.
 */
export function expand(recurrence: Recurrence, first: string, zone: string, horizon: string): Expansion {
  const time = first.slice(11)
  const found = new Set<string>([first])
  let openEnded = false
  let cut = false
  let stopped: string | undefined
  if (recurrence.rrule !== undefined) {
    const ruled = ruleStarts(recurrence.rrule, first, zone, horizon)
    openEnded = ruled.openEnded
    cut = ruled.cut
    stopped = ruled.stopped
    for (const start of ruled.starts) found.add(start)
  }
  for (const date of recurrence.rdate) {
    const start = DATE.test(date) ? `${date} ${time}` : toWall(date)
    if (start <= horizon) found.add(start)
  }
  const excluded = new Set<string>()
  const byMatch = exclusionsByMatch(recurrence.exdate)
  const kept = [...found].sort().filter((start) => {
    // A start's exclusions: those naming its wall clock, and those naming its whole day (`keyMatches`).
    const hits = [...(byMatch.get(start) ?? []), ...(byMatch.get(start.slice(0, 10)) ?? [])]
    for (const key of hits) excluded.add(key)
    // Before 1970 is dropped, as documented; past the end too, though the file check refuses a start or an rdate
    // there first: a series' first start is served however far past the horizon, and its id must stay its own.
    return hits.length === 0 && fitsOccurrenceId(start)
  })
  const starts = onePerMinute(kept)
  if (starts.length > SERIES_LIMITS.occurrences) cut = true
  return {
    starts: starts.slice(-SERIES_LIMITS.occurrences),
    openEnded,
    cut,
    unmatched: recurrence.exdate.filter((key) => !excluded.has(key)),
    ...(stopped === undefined ? {} : { stopped }),
  }
}

/**
 * The rule's starts from `first` to the horizon (and UNTIL, and COUNT), as wall clocks: those ical.js
 * yields that keep the rule, ical.js's work bounded by SERIES_LIMITS.steps (then `cut`).
 */
function ruleStarts(text: string, first: string, zone: string, horizon: string) {
  const starts: string[] = [first]
  const work = { steps: 0 }
  let rule: Rule | undefined
  try {
    rule = readRule(text)
    const iterator = iterateRule(rule, first, zone, horizon, work, SERIES_LIMITS.steps)
    for (
      let next = iterator.next();
      next && (rule.count === null || starts.length < rule.count);
      next = iterator.next()
    ) {
      const start = icalWall(next)
      if (start > first && keepsRule(rule, start) && keepsImpliedDay(rule, start, first)) starts.push(start)
    }
    return { starts, openEnded: rule.count === null && rule.until === null, cut: false }
  } catch (error) {
    // Out of steps, or a rule ical.js gives up on at this start: what was found so far is served.
    const openEnded = rule !== undefined && rule.count === null && rule.until === null
    const cut = error instanceof OutOfSteps
    return { starts, openEnded, cut, stopped: cut ? undefined : `recurrence.rrule: ${(error as Error).message}` }
  }
}

/** Starts in ascending order, the first of each minute kept (ids count minutes). */
function onePerMinute(starts: string[]): string[] {
  return starts.filter((start, i) => i === 0 || start.slice(0, 16) !== starts[i - 1]!.slice(0, 16))
}
