import ICAL from 'ical.js'

// Rules ical.js parses but cannot iterate: its iterator refuses some parts only when it starts (WEEKLY
// with BYMONTHDAY, BYYEARDAY=366 with BYMONTH), and searches for ever, holding the event loop, for a rule
// whose day filters no day meets (FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30), for parts RFC 5545 keeps to other
// frequencies (FREQ=HOURLY;BYDAY=1SA), and below MONTHLY for a day counted from the end
// (FREQ=DAILY;BYMONTHDAY=-1). Such a rule is a problem of its own, found before anything iterates it.

/** Days checked for a match: 56 years hold every leap year and weekday pairing of the calendar. */
const FROM = Date.UTC(2000, 0, 1)
const DAYS = 56 * 366
const DAY = 86_400_000
const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA']
/** Frequencies below a month: ical.js searches for ever for a day counted from the end of a month at these. */
const SUB_MONTHLY = new Set(['WEEKLY', 'DAILY', 'HOURLY', 'MINUTELY'])

/** What stops ical.js from iterating a rule that reads well (`rule` without `RRULE:`), in plain words. */
export function iterationProblems(rule: string): string[] {
  let recur: ICAL.Recur
  try {
    recur = ICAL.Recur.fromString(rule)
    recur.iterator(ICAL.Time.fromDateTimeString('2026-01-01T00:00:00'))
  } catch (error) {
    return [`recurrence.rrule: ${(error as Error).message} in ${JSON.stringify(rule)}`]
  }
  const parts = recur.parts as Record<string, (number | string)[] | undefined>
  const problem = partsProblem(recur.freq, parts) ?? noDayProblem(parts, rule) ?? firstStepsProblem(recur)
  return problem ? [`recurrence.rrule: ${problem}`] : []
}

/** Day parts no day meets: ical.js would search for them for ever. */
function noDayProblem(parts: Record<string, (number | string)[] | undefined>, rule: string): string | undefined {
  if (!parts.BYMONTHDAY && !parts.BYYEARDAY && !parts.BYWEEKNO) return undefined
  const matches = dayFilter(parts)
  for (let i = 0; i < DAYS; i++) if (matches(new Date(FROM + i * DAY))) return undefined
  const named = ['BYMONTH', 'BYWEEKNO', 'BYYEARDAY', 'BYMONTHDAY', 'BYDAY'].filter((part) => parts[part])
  return `no day has ${named.join(', ')} as ${JSON.stringify(rule)} asks; it names no date`
}

/** What ical.js throws in its first steps (a rule it takes, then refuses as it goes, such as BYDAY=6SU). */
function firstStepsProblem(recur: ICAL.Recur): string | undefined {
  try {
    const iterator = recur.iterator(ICAL.Time.fromDateTimeString('2026-01-01T00:00:00'))
    for (let step = 0; step < 3 && iterator.next(); step++);
    return undefined
  } catch (error) {
    return (error as Error).message
  }
}

/**
 * The rules of RFC 5545 (section 3.3.10) on which parts go with which FREQ (ical.js searches for ever on some it
 * does not enforce), and days counted from the end below MONTHLY, which ical.js cannot find.
 */
function partsProblem(freq: string, parts: Record<string, (number | string)[] | undefined>): string | undefined {
  const ordinals = (parts.BYDAY ?? []).map((day) => Math.abs(Number.parseInt(String(day), 10) || 0))
  const ordinal = ordinals.some((n) => n > 0)
  const most = freq === 'MONTHLY' || parts.BYMONTH ? 5 : 53
  if (ordinals.some((n) => n > most))
    return `BYDAY takes numbers from -${most} to ${most} here (a ${most === 5 ? 'month' : 'year'} has no more)`
  if (ordinal && freq !== 'MONTHLY' && freq !== 'YEARLY')
    return `BYDAY with a number (such as 1SA or -1FR) needs FREQ=MONTHLY or YEARLY, not ${freq}`
  if (ordinal && parts.BYWEEKNO) return 'BYDAY with a number (such as 1SA) cannot go with BYWEEKNO'
  if (parts.BYWEEKNO && freq !== 'YEARLY') return `BYWEEKNO needs FREQ=YEARLY, not ${freq}`
  const fromEnd = parts.BYMONTHDAY?.some((n) => Number(n) < 0)
  if (fromEnd && SUB_MONTHLY.has(freq))
    return `BYMONTHDAY counted from the end (a negative number) needs FREQ=MONTHLY or YEARLY, not ${freq}`
  return undefined
}

/** Whether a day meets the rule's day parts (a BYDAY's ordinal aside: it only narrows days of that weekday). */
function dayFilter(parts: Record<string, (number | string)[] | undefined>): (day: Date) => boolean {
  const weekdays = parts.BYDAY?.map((value) => String(value).slice(-2))
  return (day) => {
    const year = day.getUTCFullYear()
    const month = day.getUTCMonth() + 1
    const monthDays = new Date(Date.UTC(year, month, 0)).getUTCDate()
    const yearDays = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 366 : 365
    const yearDay = Math.round((day.getTime() - Date.UTC(year, 0, 1)) / DAY) + 1
    return (
      within(parts.BYMONTH, month, 12) &&
      within(parts.BYMONTHDAY, day.getUTCDate(), monthDays) &&
      within(parts.BYYEARDAY, yearDay, yearDays) &&
      within(parts.BYWEEKNO, ...isoWeek(day)) &&
      (!weekdays || weekdays.includes(WEEKDAYS[day.getUTCDay()]!))
    )
  }
}

/** Whether `value` (1-based, of `count`) is among `wanted`, where -1 is the last. */
function within(wanted: (number | string)[] | undefined, value: number, count: number): boolean {
  return !wanted || wanted.some((n) => Number(n) === value || Number(n) === value - count - 1)
}

/** The ISO 8601 week of a day and how many weeks its week-year has. */
function isoWeek(day: Date): [number, number] {
  const thursday = new Date(day.getTime() + (3 - ((day.getUTCDay() + 6) % 7)) * DAY)
  const year = thursday.getUTCFullYear()
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / DAY / 7) + 1
  const dec28 = new Date(Date.UTC(year, 11, 28))
  const last =
    Math.floor((dec28.getTime() + (3 - ((dec28.getUTCDay() + 6) % 7)) * DAY - Date.UTC(year, 0, 1)) / DAY / 7) + 1
  return [week, last]
}
