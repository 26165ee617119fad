import ICAL from 'ical.js'
import { SERIES_LIMITS } from './recurrence.ts'
import { floatingUntil, guarded, icalWall } from './recurrence-iterator.ts'
import { readRule } from './recurrence-rule.ts'

// What a calendar client makes of a rule as written. Almanac checks some parts of a rule itself where ical.js
// would loop or read them otherwise (docs/recurrence.md §5); a client expanding the RRULE of a feed has no such
// checks. A feed gives a rule as RRULE only when the client's reading, Mozilla's ical.js as Thunderbird runs it,
// gives the starts Almanac serves; otherwise it lists the starts (docs/feeds.md §4).

/** Whether ical.js is given the rule as written: no part of it is one Almanac checks in its place (COUNT aside). */
export function isPlainRule(text: string): boolean {
  try {
    const rule = readRule(text)
    const parts = (rule: string) => rule.split(';').filter((part) => !/^COUNT=/i.test(part))
    return parts(rule.iterated).length === parts(text).length
  } catch {
    return false
  }
}

/**
 * The starts ical.js gives for a plain rule (`isPlainRule`) from `first` up to `horizon` (wall clocks in `zone`,
 * UNTIL read as Almanac reads it), with its own COUNT; undefined when it takes more than SERIES_LIMITS.steps.
 */
export function clientStarts(text: string, first: string, zone: string, horizon: string): string[] | undefined {
  try {
    const recur = ICAL.Recur.fromString(text)
    // Bounded by the horizon too: some rules make ical.js search without end between two of its steps.
    const end = ICAL.Time.fromDateTimeString(horizon.replace(' ', 'T'))
    const until = recur.until ? floatingUntil(recur.until, zone) : end
    if (recur.count === null) recur.until = until.compare(end) < 0 ? until : end
    else if (recur.until) recur.until = until
    const iterator = guarded(
      recur.iterator(ICAL.Time.fromDateTimeString(first.replace(' ', 'T'))),
      { steps: 0 },
      SERIES_LIMITS.steps,
    )
    const starts: string[] = []
    for (let next = iterator.next(); next; next = iterator.next()) {
      const start = icalWall(next)
      if (start > horizon || starts.length > 4 * SERIES_LIMITS.occurrences) break
      starts.push(start)
    }
    return starts
  } catch {
    return undefined
  }
}
