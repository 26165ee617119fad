import { outside } from '../content/checks/date-range.ts'
import { eventTimes } from '../content/model/derive.ts'
import type { ContentRecord } from '../content/store.ts'
import { invalidParam } from '../errors.ts'
import { isTimestamp, parseTime } from '../time/parse.ts'
import { instantToWall } from '../time/zone.ts'
import type { Changes } from './changes.ts'
import { sanitizeChanges } from './sanitize.ts'
import type { WriteContext } from './transaction.ts'

// An event write's status and attendance (docs/compatibility.md §32), after its dates: the values as sent ('' clears
// the text ones), and the old start of an event rescheduled by a write that moves it.

/** The zone an event write reads its dates in: the zone it sends, else the event's, else the site's. */
export function writeZone(
  params: Record<string, unknown>,
  given: Set<string>,
  ctx: WriteContext,
  event: ContentRecord | undefined,
): string {
  if (given.has('timezone') && params.timezone) return String(params.timezone)
  return event ? eventTimes(event, ctx.site.timezone).timezone : ctx.site.timezone
}

/**
 * A date argument as a wall clock in `zone`: text without an offset is read in that zone, instants are converted
 * to it; a Unix timestamp gives its UTC wall clock, as the reference does (docs/compatibility.md §30). The argument
 * was checked in the site's zone; read in the event's, a date near year 0000 or 9999 may leave the range: 400.
 */
export function wallIn(value: unknown, zone: string, now: number, field: string): string {
  const parsed = parseTime(value, zone, now)
  if (parsed === null) throw invalidParam(field, `${field}: ${outside(value, zone)}`)
  return instantToWall(parsed.instant, isTimestamp(value) ? 'UTC' : zone)
}

/** The status fields a write changes; `dates` are the write's date changes (a moved start is among them). */
export function statusChanges(
  params: Record<string, unknown>,
  given: Set<string>,
  ctx: WriteContext,
  event: ContentRecord | undefined,
  dates: Changes,
): Changes {
  const sent = (field: string) => given.has(field) && params[field] !== undefined && params[field] !== null
  const changes: Changes = {}
  for (const field of ['event_status', 'attendance_mode']) if (sent(field)) changes[field] = String(params[field])
  for (const field of ['event_status_reason', 'online_url'])
    if (sent(field)) changes[field] = params[field] === '' ? null : String(params[field])
  if (sent('previous_start_date')) {
    const value = params.previous_start_date
    changes.previous_start_date =
      value === '' ? null : wallIn(value, writeZone(params, given, ctx, event), ctx.now, 'previous_start_date')
  } else if (event && changes.event_status === 'rescheduled' && dates.start_date !== undefined) {
    // Rescheduled and moved in one write: where it used to start is known, so it is recorded.
    changes.previous_start_date = eventTimes(event, ctx.site.timezone).startWall
  }
  // A reason is plain text: contributors and authors write it without markup, as a venue's address.
  return sanitizeChanges(changes, ctx)
}
