import type ICAL from 'ical.js'
import { isWallClock } from '../../time/zone.ts'
import { recurOf } from './recur-text.ts'

// An RRULE as Almanac takes it, and the test each occurrence ical.js yields must pass. ical.js 2.2
// iterates most rules right, but not all (docs/recurrence.md, "Rules"): it rolls impossible dates
// over (BYMONTH=2;BYMONTHDAY=30 gives 2 March), skips negative BYMONTHDAY as a limit, ignores the
// ordinal of a yearly BYDAY (20MO) and BYWEEKNO, and spins forever on a limit that never holds
// (FREQ=DAILY;BYMONTH=4;BYMONTHDAY=31). So the limits of DAILY, HOURLY and MINUTELY rules (and
// BYMONTH of MONTHLY and WEEKLY ones) are taken out of what ical.js iterates and checked here, every
// yield is checked against the rule's parts, COUNT is counted here, and ical.js's work is bounded.

/** What a rule may ask at most (docs/recurrence.md, "Limits"). */
export const RULE_LIMITS = {
  /** Characters of rule text. */
  text: 500,
  /** INTERVAL: 1 to this. */
  interval: 1000,
} as const

const DAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA']
const SUB_MONTHLY = new Set(['DAILY', 'HOURLY', 'MINUTELY'])
/** Day parts that only limit a DAILY, HOURLY or MINUTELY rule: checked here, not given to ical.js. */
const DAY_LIMITS = ['BYMONTH', 'BYMONTHDAY', 'BYDAY', 'BYYEARDAY']

/** A rule read: what ical.js iterates, and the parts each occurrence is checked against. */
export interface Rule {
  freq: string
  /** COUNT, counted here (the first start is the first occurrence, as RFC 5545 has DTSTART). */
  count: number | null
  until: ICAL.Time | null
  /** The rule given to ical.js: without COUNT and without the limits checked here. */
  iterated: string
  parts: Record<string, (string | number)[]>
  /** Week start, 0 (Sunday) to 6. */
  wkst: number
}

/** Reads a rule (text without `RRULE:`); throws an Error whose message says, in plain words, what is wrong. */
export function readRule(text: string): Rule {
  if (text.length > RULE_LIMITS.text) throw new Error(`is longer than ${RULE_LIMITS.text} characters`)
  if (!/(^|;)FREQ=/i.test(text)) throw new Error('names no FREQ')
  // RFC 5545's rule is letters, digits and `=;,+-`: anything else (a line break, a space) is no part of one.
  if (!/^[A-Za-z0-9=;,+-]*$/.test(text)) throw new Error('holds a character no rule has (only A-Z, 0-9 and =;,+-)')
  // RFC 5545: a part at most once. ical.js keeps the last of two, and the checks here would read the first.
  const keys = text.split(';').map((part) => part.split('=')[0]!.toUpperCase())
  const twice = keys.find((key, i) => key !== '' && keys.indexOf(key) !== i)
  if (twice !== undefined) throw new Error(`names ${twice} twice (each part of a rule is given once)`)
  const interval = /(?:^|;)INTERVAL=([^;]*)/i.exec(text)?.[1]
  if (interval !== undefined && !(/^\d+$/.test(interval) && +interval >= 1 && +interval <= RULE_LIMITS.interval))
    throw new Error(`INTERVAL must be 1 to ${RULE_LIMITS.interval}`)
  const until = /(?:^|;)UNTIL=(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z?)?(?:;|$)/i.exec(text)
  if (!until && /(?:^|;)UNTIL=/i.test(text))
    throw new Error('UNTIL is not written YYYYMMDD, or YYYYMMDDTHHMMSSZ in UTC')
  // ical.js rolls an impossible UNTIL over (20270230 ends on 2 March): it is refused instead.
  if (
    until &&
    !isWallClock(`${until[1]}-${until[2]}-${until[3]} ${until[4] ?? '00'}:${until[5] ?? '00'}:${until[6] ?? '00'}`)
  )
    throw new Error('UNTIL is not a real date (write YYYYMMDD, or YYYYMMDDTHHMMSSZ in UTC)')
  const recur = recurOf(text)
  const parts = recur.parts as Record<string, (string | number)[]>
  const problem = partsProblem(recur, parts)
  if (problem) throw new Error(problem)
  const dropped = (key: string) =>
    key === 'COUNT' ||
    key === 'BYWEEKNO' ||
    (SUB_MONTHLY.has(recur.freq) && DAY_LIMITS.includes(key)) ||
    (key === 'BYMONTH' && (recur.freq === 'MONTHLY' || recur.freq === 'WEEKLY'))
  const iterated = text
    .split(';')
    .filter((part) => !dropped(part.split('=')[0]!.toUpperCase()))
    .map(ascending)
    .join(';')
  return { freq: recur.freq, count: recur.count, until: recur.until, iterated, parts, wkst: recur.wkst - 1 }
}

/**
 * An hour, minute or month list in ascending order: ical.js 2.2 steps through such a list in the order written, so
 * `FREQ=DAILY;BYHOUR=23,13` gave 23:00 of the next day where 13:00 was due (found by the rrule.js oracle, seed 2).
 */
function ascending(part: string): string {
  const [key, value] = part.split('=') as [string, string | undefined]
  if (!/^BY(HOUR|MINUTE|MONTH)$/i.test(key) || value === undefined) return part
  return `${key}=${value
    .split(',')
    .sort((a, b) => Number(a) - Number(b))
    .join(',')}`
}

function partsProblem(recur: ICAL.Recur, parts: Record<string, unknown[]>): string | undefined {
  const yearly = recur.freq === 'YEARLY'
  if (recur.freq === 'SECONDLY' || parts.BYSECOND)
    return 'occurrences are at least a minute apart; SECONDLY and BYSECOND are not taken'
  if (recur.count !== null && recur.until !== null) return 'COUNT and UNTIL cannot both be given'
  if (recur.count !== null && recur.count < 1) return 'COUNT must be 1 or more'
  // ical.js 2.2 takes BYHOUR of an hourly rule before its INTERVAL, so every day matches.
  if (recur.freq === 'HOURLY' && recur.interval > 1 && parts.BYHOUR)
    return 'an hourly rule with INTERVAL above 1 takes no BYHOUR'
  if (yearly && (parts.BYHOUR || parts.BYMINUTE))
    return 'a yearly rule takes its time from the start; BYHOUR and BYMINUTE are not taken with FREQ=YEARLY'
  // ical.js 2.2 keeps a yearly rule's month days to its first start's month; RFC 5545 has them in every month.
  if (yearly && parts.BYMONTHDAY && !parts.BYMONTH && !parts.BYYEARDAY && !parts.BYWEEKNO)
    return 'a yearly rule with BYMONTHDAY names its months in BYMONTH; for every month write FREQ=MONTHLY;BYMONTHDAY=…'
  if (yearly && parts.BYMONTHDAY?.some((n) => Number(n) < 0))
    return 'a yearly rule takes BYMONTHDAY 1 to 31; for the last days of a month write FREQ=MONTHLY;BYMONTHDAY=-1;BYMONTH=…'
  if (parts.BYSETPOS && !setPositionTaken(recur.freq, parts))
    return 'BYSETPOS is taken as FREQ=MONTHLY;BYDAY=…;BYSETPOS=… only (days without numbers; BYMONTH may be added)'
  if (parts.BYSETPOS?.some((n) => n === 0 || Math.abs(Number(n)) > 31))
    return 'BYSETPOS must be 1 to 31 or -31 to -1 (it picks among the days of a month)'
  if (parts.BYWEEKNO && !(yearly && parts.BYDAY && !parts.BYSETPOS && !parts.BYMONTHDAY && !parts.BYYEARDAY))
    return 'BYWEEKNO is taken as FREQ=YEARLY;BYWEEKNO=…;BYDAY=… (BYMONTH may be added)'
  if (parts.BYWEEKNO && recur.interval !== 1) return 'BYWEEKNO is taken with INTERVAL=1 only'
  if (parts.BYWEEKNO?.some((n) => n === 0)) return 'BYWEEKNO must be 1 to 53 or -53 to -1'
  if (parts.BYYEARDAY?.some((n) => n === 0)) return 'BYYEARDAY must be 1 to 366 or -366 to -1'
  if (parts.BYMONTHDAY?.some((n) => n === 0)) return 'BYMONTHDAY must be 1 to 31 or -31 to -1'
  const ordinal = (parts.BYDAY as string[] | undefined)?.some((day) => /\d/.test(day))
  if (ordinal && (!(yearly || recur.freq === 'MONTHLY') || parts.BYWEEKNO))
    return 'a BYDAY with a number (1MO, -1FR) is taken with FREQ=MONTHLY or YEARLY only, without BYWEEKNO'
  if (recur.freq === 'MONTHLY' && parts.BYDAY && parts.BYMONTHDAY && recur.interval !== 1)
    return 'a monthly rule with both BYDAY and BYMONTHDAY is taken with INTERVAL=1 only'
  // ical.js 2.2 throws part way ("Malformed values in BYDAY part") from some starts, found by the rrule.js oracle.
  if (recur.freq === 'MONTHLY' && parts.BYDAY && parts.BYMONTHDAY?.some((n) => Number(n) < 0))
    return 'a monthly rule with BYDAY takes BYMONTHDAY 1 to 31; a day counted from the end is not taken with BYDAY'
  // It also throws in a month that lacks one of several days (30 and 31 in June).
  const monthDays = parts.BYMONTHDAY ?? []
  if (recur.freq === 'MONTHLY' && parts.BYDAY && monthDays.length > 1 && monthDays.some((n) => Number(n) > 28))
    return 'a monthly rule with BYDAY takes one BYMONTHDAY, or several from 1 to 28'
  // A yearly rule over several months skips such a day, even alone (docs/recurrence.md; over one month it is right).
  const oneMonth = parts.BYMONTH?.length === 1
  if (yearly && parts.BYDAY && !oneMonth && monthDays.some((n) => Number(n) > 28))
    return 'a yearly rule with BYDAY over several months takes BYMONTHDAY 1 to 28; for a later day write FREQ=MONTHLY;BYDAY=…;BYMONTHDAY=<day>;BYMONTH=…'
  if (ordinal && parts.BYMONTHDAY) return 'a BYDAY with a number (1MO, -1FR) is not taken with BYMONTHDAY'
  if (ordinal && recur.freq === 'MONTHLY' && parts.BYDAY!.some((day) => Math.abs(Number.parseInt(String(day), 10)) > 5))
    return 'a monthly BYDAY number must be 1 to 5 or -5 to -1'
  return undefined
}

/** ical.js applies BYSETPOS to a month's plain BYDAY days only (per month even in yearly rules), and ignores it elsewhere. */
function setPositionTaken(freq: string, parts: Record<string, unknown[]>): boolean {
  const keys = Object.keys(parts)
  const others = keys.filter((key) => key !== 'BYSETPOS' && key !== 'BYDAY' && key !== 'BYMONTH').length
  if (others > 0 || !keys.includes('BYDAY') || (parts.BYDAY as string[]).some((day) => /\d/.test(day))) return false
  return freq === 'MONTHLY'
}

interface Wall {
  year: number
  month: number
  day: number
  hour: number
  minute: number
  /** 0 (Sunday) to 6. */
  weekday: number
  monthDays: number
  yearDay: number
  yearDays: number
}

function wallOf(start: string): Wall {
  const [year, month, day, hour, minute] = start.split(/[- :]/).map(Number) as [number, number, number, number, number]
  const at = new Date(0)
  at.setUTCFullYear(year, month - 1, day)
  const monthEnd = new Date(0)
  monthEnd.setUTCFullYear(year, month, 0)
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
  const yearStart = new Date(0)
  yearStart.setUTCFullYear(year, 0, 1)
  const yearDay = Math.round((at.getTime() - yearStart.getTime()) / 86_400_000) + 1
  return {
    year,
    month,
    day,
    hour,
    minute,
    weekday: at.getUTCDay(),
    monthDays: monthEnd.getUTCDate(),
    yearDay,
    yearDays: leap ? 366 : 365,
  }
}

/** Whether `value` (1-based, of `size`) is named by `list`, where -1 is the last. */
function inList(list: (string | number)[] | undefined, value: number, size: number): boolean {
  return !list || list.some((n) => Number(n) === value || Number(n) === value - size - 1)
}

/** Whether an occurrence ical.js yielded keeps every part of the rule. */
export function keepsRule(rule: Rule, start: string): boolean {
  const wall = wallOf(start)
  const { parts } = rule
  return (
    (!parts.BYSETPOS || keepsSetPosition(parts, wall)) &&
    inList(parts.BYMONTH, wall.month, 1e9) &&
    inList(parts.BYMONTHDAY, wall.day, wall.monthDays) &&
    inList(parts.BYYEARDAY, wall.yearDay, wall.yearDays) &&
    inList(parts.BYHOUR, wall.hour, 1e9) &&
    inList(parts.BYMINUTE, wall.minute, 1e9) &&
    (!parts.BYDAY || (parts.BYDAY as string[]).some((day) => keepsDay(rule, wall, day))) &&
    (!parts.BYWEEKNO || inList(parts.BYWEEKNO, ...weekNumber(wall, rule.wkst)))
  )
}

/**
 * Whether the wall's day is at a position BYSETPOS names among its month's BYDAY days (the one form of BYSETPOS
 * taken: `setPositionTaken`). ical.js counts a first start that is not one of them among them, in its month: from
 * Thursday 1 January, `FREQ=MONTHLY;BYDAY=MO;BYSETPOS=2` gave Monday the 5th besides the 12th (found by the rrule.js oracle).
 */
function keepsSetPosition(parts: Record<string, unknown[]>, wall: Wall): boolean {
  const days = new Set((parts.BYDAY as string[]).map((day) => DAYS.indexOf(day)))
  const firstWeekday = (wall.weekday - ((wall.day - 1) % 7) + 7) % 7
  let position = 0
  let size = 0
  for (let day = 1; day <= wall.monthDays; day++) {
    if (!days.has((firstWeekday + day - 1) % 7)) continue
    size++
    if (day === wall.day) position = size
  }
  return position > 0 && inList(parts.BYSETPOS as (string | number)[], position, size)
}

/** Whether a BYDAY entry (`MO`, `2TU`, `-1FR`) names the wall's day. */
function keepsDay(rule: Rule, wall: Wall, entry: string): boolean {
  const m = /^([+-]?\d*)(\w\w)$/.exec(entry)!
  if (DAYS.indexOf(m[2]!) !== wall.weekday) return false
  if (m[1] === '' || m[1] === '+') return true
  const inMonth = rule.freq === 'MONTHLY' || rule.parts.BYMONTH !== undefined
  const [index, size] = inMonth ? [wall.day, wall.monthDays] : [wall.yearDay, wall.yearDays]
  const n = Number(m[1])
  return n > 0 ? Math.floor((index - 1) / 7) + 1 === n : Math.floor((size - index) / 7) + 1 === -n
}

/** RFC 5545's week number of a day, and its year's weeks: from WKST; week 1 holds 4 days of the year at least. */
function weekNumber(wall: Wall, wkst: number): [number, number] {
  const firstWeekStart = (year: number) => {
    const jan1 = new Date(0)
    jan1.setUTCFullYear(year, 0, 1)
    const offset = (jan1.getUTCDay() - wkst + 7) % 7
    return jan1.getTime() - offset * 86_400_000 + (offset > 3 ? 7 * 86_400_000 : 0)
  }
  const at = new Date(0)
  at.setUTCFullYear(wall.year, wall.month - 1, wall.day)
  let year = wall.year
  if (at.getTime() >= firstWeekStart(year + 1)) year += 1
  else if (at.getTime() < firstWeekStart(year)) year -= 1
  const weeks = Math.round((firstWeekStart(year + 1) - firstWeekStart(year)) / (7 * 86_400_000))
  return [Math.floor((at.getTime() - firstWeekStart(year)) / (7 * 86_400_000)) + 1, weeks]
}
