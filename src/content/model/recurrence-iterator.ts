import ICAL from 'ical.js'
import { instantToWall } from '../../time/zone.ts'
import type { Rule } from './recurrence-rule.ts'

// ical.js's iteration of a rule, as Almanac drives it: bounded in work, ending at UNTIL or the horizon, in the
// series' wall clock, and round ical.js 2.2's faults with monthly lists of numbered days or month days
// (docs/recurrence.md §10). Each start it yields is then checked against the rule (`keepsRule`) and the day its first
// start implies (`keepsImpliedDay`).

/** What ical.js gives, one start after another, null at the end. */
export interface Starts {
  next(): ICAL.Time | null
}

export class OutOfSteps extends Error {}

/**
 * ical.js's starts of the rule from `first`, ending at UNTIL (in the zone's wall clock) or the horizon, each
 * candidate counted in `work` (OutOfSteps past `limit`).
 *
 * A monthly rule with several numbered days (`BYDAY=5MO,5TU`) or several month days (`BYMONTHDAY=31,-31`) is
 * iterated one day at a time and the starts merged: ical.js 2.2 iterates one alone right, and several wrong.
 * - Starting numbered days, it looks for each in turn and, once one is missing from the first month, measures the
 *   next against the length of the month where the missing one was found: the last Thursday of December 1971 was
 *   lost to `-1TH,5TU`, and `5MO,5TU` from December 2027 threw.
 * - Month days a month lacks (31 in April) lose INTERVAL's phase: `INTERVAL=2;BYMONTHDAY=31,-31` from April gave
 *   May, July and January.
 */
export function iterateRule(
  rule: Rule,
  first: string,
  zone: string,
  horizon: string,
  work: { steps: number },
  limit: number,
): Starts {
  const start = ICAL.Time.fromDateTimeString(first.replace(' ', 'T'))
  const end = ICAL.Time.fromDateTimeString(horizon.replace(' ', 'T'))
  const until = rule.until ? floatingUntil(rule.until, zone) : end
  const iterate = (text: string) => {
    const recur = ICAL.Recur.fromString(text)
    recur.until = until.compare(end) < 0 ? until : end
    return guarded(recur.iterator(start), work, limit)
  }
  const part = splitPart(rule)
  if (!part) return iterate(rule.iterated)
  const pattern = new RegExp(`(^|;)${part}=[^;]*`, 'i')
  return merged(rule.parts[part]!.map((value) => iterate(rule.iterated.replace(pattern, `$1${part}=${value}`))))
}

/** The part whose values are iterated one at a time, if any (see iterateRule). */
function splitPart(rule: Rule): 'BYDAY' | 'BYMONTHDAY' | undefined {
  if (rule.freq !== 'MONTHLY') return undefined
  const days = (rule.parts.BYDAY ?? []) as string[]
  if (days.length > 1 && days.some((day) => /\d/.test(day))) return 'BYDAY'
  if (days.length === 0 && (rule.parts.BYMONTHDAY?.length ?? 0) > 1) return 'BYMONTHDAY'
  return undefined
}

/** The starts of several iterators, the earliest head first, each start once. */
function merged(iterators: Starts[]): Starts {
  // ical.js hands out its own time object and moves it on the next step: each head is a copy. One iterator's
  // starts need not ascend (BYHOUR=13,0 gives 13:00 before 00:00), so the starts given are remembered.
  const pull = (iterator: Starts) => iterator.next()?.clone() ?? null
  const heads = iterators.map(pull)
  const given = new Set<string>()
  return {
    next() {
      for (;;) {
        let min = -1
        heads.forEach((head, i) => {
          if (head && (min < 0 || head.compare(heads[min]!) < 0)) min = i
        })
        if (min < 0) return null
        const head = heads[min]!
        heads[min] = pull(iterators[min]!)
        const wall = icalWall(head)
        if (!given.has(wall)) {
          given.add(wall)
          return head
        }
      }
    },
  }
}

/**
 * The iterator, each of its steps counted (a step: one candidate ical.js tries, whether it keeps it
 * or not), so that a rule that never or rarely yields gives up after `limit` steps.
 */
export function guarded(iterator: ICAL.RecurIterator, work: { steps: number }, limit: number): ICAL.RecurIterator {
  const inner = iterator as unknown as Record<string, () => boolean>
  const check = inner.check_contracting_rules
  if (typeof check !== 'function') throw new Error('ical.js changed: RecurIterator.check_contracting_rules is gone')
  inner.check_contracting_rules = function counted(this: unknown) {
    if (++work.steps > limit) throw new OutOfSteps()
    return check.call(this)
  }
  return iterator
}

/**
 * UNTIL in the series' own wall clock: RFC 5545 writes it in UTC (`…Z`) when DTSTART has a zone, so it
 * is moved into the zone; a bare date ends with that day; a floating one is taken as written.
 */
export function floatingUntil(until: ICAL.Time, zone: string): ICAL.Time {
  if (until.isDate) return ICAL.Time.fromDateTimeString(`${icalWall(until).slice(0, 10)}T23:59:59`)
  if (until.zone !== ICAL.Timezone.utcTimezone) return until
  const wall = instantToWall(until.toUnixTime() * 1000, zone)
  return ICAL.Time.fromDateTimeString(wall.replace(' ', 'T'))
}

/**
 * An ical.js time as a wall clock, `YYYY-MM-DD HH:MM:SS` (a date's time 00:00:00): its own `toString` leaves a year
 * before 1000 unpadded (`99-12-28T10:00:00`), which no wall clock matches and which sorts after 1970.
 */
export function icalWall(time: ICAL.Time): string {
  const two = (n: number) => String(n).padStart(2, '0')
  const date = `${String(time.year).padStart(4, '0')}-${two(time.month)}-${two(time.day)}`
  return `${date} ${two(time.hour)}:${two(time.minute)}:${two(time.second)}`
}

/**
 * Whether a start is on the day the first start implies where no part names one (RFC 5545: a monthly rule without a
 * day part recurs on the first start's day of the month, a yearly one on its month and day, and a day a month lacks
 * is no occurrence). ical.js let one through: `FREQ=MONTHLY;BYMINUTE=0,59` from 29 January 1969 gave 1 February
 * 1970 at 00:59 (the rrule.js oracle, seed 711409272).
 */
export function keepsImpliedDay(rule: Rule, start: string, first: string): boolean {
  const { parts } = rule
  if (parts.BYDAY || parts.BYMONTHDAY || parts.BYYEARDAY || parts.BYWEEKNO) return true
  if (rule.freq === 'MONTHLY') return start.slice(8, 10) === first.slice(8, 10)
  if (rule.freq !== 'YEARLY') return true
  return parts.BYMONTH ? start.slice(8, 10) === first.slice(8, 10) : start.slice(5, 10) === first.slice(5, 10)
}
