import ICAL from 'ical.js'
import { eventTimes } from '../../content/model/derive.ts'
import { clientStarts, isPlainRule } from '../../content/model/recurrence-client.ts'
import { expand, readRecurrence, toWall } from '../../content/model/recurrence.ts'
import type { ContentRecord } from '../../content/store.ts'
import { instantToWall, secondInstant, wallToInstant } from '../../time/zone.ts'
import type { View } from '../view.ts'
import { feedZone } from './time-zones.ts'

// A series in a feed is one VEVENT (docs/feeds.md §4): its first start as DTSTART, then either its rule as RRULE,
// when a client's reading of it gives the starts Almanac serves, or else the starts themselves as RDATE. Either
// way the lines name exactly the occurrences the feed holds: RDATE adds the extra ones, EXDATE takes out what the
// rule gives that the feed does not hold (excluded dates, and occurrences outside the feed's query).

/** How a series' rule reaches clients: as RRULE (with the starts it gives up to the horizon), or not at all. */
export interface RuleMode {
  rrule?: string
  ruled: ReadonlySet<string>
}

/** The rule as RRULE when it is plain and ical.js finds the starts Almanac serves for it; else none. */
export function ruleMode(series: ContentRecord, view: View, horizon: string): RuleMode {
  const data = series.source.data
  const { recurrence } = readRecurrence(data.recurrence as Record<string, unknown>)
  const rule = recurrence.rrule
  if (rule === undefined || !isPlainRule(rule)) return { ruled: new Set() }
  const zone = eventTimes(series, view.site.timezone).timezone
  const first = toWall(String(data.start_date))
  const ours = expand({ rdate: [], exdate: [], rrule: rule }, first, zone, horizon)
  // A wall clock in a DST gap is read otherwise by clients (ical.js an hour early): such a series goes by its dates.
  if (ours.cut || ours.stopped !== undefined || ours.starts.some((start) => !exists(start, zone)))
    return { ruled: new Set() }
  const theirs = onePerMinute((clientStarts(rule, first, zone, horizon) ?? []).filter((s) => s >= '1970-01-01'))
  if (theirs.join() !== ours.starts.join()) return { ruled: new Set() }
  return {
    rrule: ruleText(ICAL.Recur.fromString(rule).toString(), zone, data.all_day === true),
    ruled: new Set(ours.starts),
  }
}

/** The RRULE, RDATE and EXDATE lines of a series whose feed holds the occurrences that start at `shown`. */
export function seriesRuleLines(series: ContentRecord, view: View, mode: RuleMode, shown: readonly string[]): string[] {
  const data = series.source.data
  const zone = eventTimes(series, view.site.timezone).timezone
  const value = (walls: string[]) => dateList(walls, feedZone(zone), data.all_day === true)
  const first = toWall(String(data.start_date))
  const held = new Set(shown)
  const lines: string[] = []
  const ruled = mode.rrule === undefined ? new Set([first]) : mode.ruled
  // Listed by its dates, a series still has a rule that gives DTSTART alone: every client counts DTSTART as the
  // first occurrence then (ical.js leaves it out of a set of RDATEs without a rule).
  lines.push(`RRULE:${mode.rrule ?? 'FREQ=DAILY;COUNT=1'}`)
  const extra = shown.filter((start) => !ruled.has(start))
  if (extra.length > 0) lines.push(`RDATE${value(extra)}`)
  const left = [...ruled].filter((start) => !held.has(start)).sort()
  if (left.length > 0) lines.push(`EXDATE${value(left)}`)
  return lines
}

/** Whether a wall clock exists in a zone (not skipped by a change to summer time). */
function exists(wall: string, zone: string): boolean {
  return instantToWall(wallToInstant(wall, zone), zone) === wall
}

/**
 * `;TZID=zone:…,…` for wall clocks in the zone (one a DST gap skipped as the wall clock of its instant, as DTSTART
 * is written); `;VALUE=DATE:…` for an all-day series; UTC as `…Z`.
 */
function dateList(walls: string[], zone: string, allDay: boolean): string {
  if (allDay) return `;VALUE=DATE:${walls.map((wall) => compact(wall).slice(0, 8)).join(',')}`
  const real = walls.map((wall) => compact(instantToWall(wallToInstant(wall, zone), zone)))
  if (zone === 'UTC') return `:${real.map((wall) => `${wall}Z`).join(',')}`
  return `;TZID=${zone}:${real.join(',')}`
}

/** `2026-12-01 19:00:00` → `20261201T190000`. */
function compact(wall: string): string {
  return wall.replace(' ', 'T').replace(/[-:]/g, '')
}

function onePerMinute(starts: string[]): string[] {
  return starts.filter((start, i) => i === 0 || start.slice(0, 16) !== starts[i - 1]!.slice(0, 16))
}

/**
 * The rule as ical.js writes it back (no part it did not read), with UNTIL in the form RFC 5545 asks: a date for an
 * all-day series, else the UTC instant Almanac reads it as (a date is the end of that day, a time without `Z` a
 * wall clock, both in the event's zone).
 */
function ruleText(rule: string, zone: string, allDay: boolean): string {
  return rule
    .split(';')
    .map((part) => {
      const [name = '', text = ''] = part.split('=')
      return name === 'UNTIL' ? `UNTIL=${untilText(text, zone, allDay)}` : part
    })
    .join(';')
}

function untilText(until: string, zone: string, allDay: boolean): string {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$/.exec(until)
  if (!m) return until
  const utc = m[7] === 'Z'
  const wall = `${m[1]}-${m[2]}-${m[3]} ${m[4] ?? '23'}:${m[5] ?? '59'}:${m[6] ?? '59'}`
  if (allDay)
    return (utc ? compact(instantToWall(Date.parse(`${wall.replace(' ', 'T')}Z`), zone)) : compact(wall)).slice(0, 8)
  if (utc) return until
  // A wall clock the zone shows twice ends the rule at its second instant: clients that read the last occurrence as
  // the first (RFC 5545) and those that read it as the second (ical.js) both keep it.
  return `${compact(instantToWall(secondInstant(wall, zone) ?? wallToInstant(wall, zone), 'UTC'))}Z`
}
