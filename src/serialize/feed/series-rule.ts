import { eventTimes } from '../../content/model/derive.ts'
import { expand, horizonAt, readRecurrence, toWall } from '../../content/model/recurrence.ts'
import type { ContentRecord } from '../../content/store.ts'
import { instantToWall, wallToInstant } from '../../time/zone.ts'
import type { View } from '../view.ts'

// A series in a feed is one VEVENT: its first start as DTSTART, its rule as RRULE, its extra dates as RDATE,
// and as EXDATE every start the rule gives up to the horizon that Almanac does not serve (excluded dates,
// whole excluded days, the earliest ones past the cap). A client that expands the rule then finds exactly
// the occurrences the JSON lists (docs/feeds.md).

/** The RRULE, RDATE and EXDATE lines of a series, in iCalendar form. */
export function seriesRuleLines(series: ContentRecord, view: View): string[] {
  const data = series.source.data
  const { recurrence } = readRecurrence(data.recurrence as Record<string, unknown>)
  const zone = eventTimes(series, view.site.timezone).timezone
  const allDay = data.all_day === true
  const first = toWall(String(data.start_date))
  const value = (walls: string[]) => dateList(walls, zone, allDay)
  const lines: string[] = []
  if (recurrence.rrule !== undefined) lines.push(`RRULE:${ruleText(recurrence.rrule, zone, allDay)}`)
  const time = first.slice(11)
  const rdates = recurrence.rdate.map((date) => (date.length === 10 ? `${date} ${time}` : toWall(date)))
  if (rdates.length > 0) lines.push(`RDATE${value(rdates)}`)
  const served = new Set(view.store.occurrencesOf(series).map((occurrence) => occurrence.series!.start))
  const yielded = expand({ ...recurrence, exdate: [] }, first, zone, horizonAt(view.now)).starts
  const excluded = yielded.filter((start) => !served.has(start))
  if (excluded.length > 0) lines.push(`EXDATE${value(excluded)}`)
  return lines
}

/** `;TZID=zone:…,…` for wall clocks in the zone; `;VALUE=DATE:…` for an all-day series; UTC as `…Z`. */
function dateList(walls: string[], zone: string, allDay: boolean): string {
  if (allDay) return `;VALUE=DATE:${walls.map((wall) => compact(wall).slice(0, 8)).join(',')}`
  if (zone === 'UTC') return `:${walls.map((wall) => `${compact(wall)}Z`).join(',')}`
  return `;TZID=${zone}:${walls.map(compact).join(',')}`
}

/** `2026-12-01 19:00:00` → `20261201T190000`. */
function compact(wall: string): string {
  return wall.replace(' ', 'T').replace(/[-:]/g, '')
}

/**
 * The rule as written, with UNTIL in the form RFC 5545 asks: a date for an all-day series, else the UTC instant
 * Almanac reads it as (a date is the end of that day, a time without `Z` a wall clock, both in the event's zone).
 */
function ruleText(rule: string, zone: string, allDay: boolean): string {
  return rule
    .split(';')
    .filter((part) => part !== '')
    .map((part) => {
      const [name = '', text = ''] = part.split('=')
      if (name.toUpperCase() !== 'UNTIL') return part.toUpperCase()
      return `UNTIL=${untilText(text.toUpperCase(), zone, allDay)}`
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
  return `${compact(instantToWall(wallToInstant(wall, zone), 'UTC'))}Z`
}
