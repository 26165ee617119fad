import {
  type AttendanceMode,
  type EventStatus,
  type StatusDetails,
  statusDetailsOf,
} from '../content/model/event-status.ts'
import { instantToIso, wallToInstant } from '../time/zone.ts'

// An event's status and attendance in its answer and its JSON-LD (docs/compatibility.md §32): five keys after
// `custom_fields`, and schema.org's values as Google's event guidance reads them.

type Shape = Record<string, unknown>

/** The five keys of the answer, in their order, from the event's fields in the language served. */
export function statusKeys(fields: Readonly<Record<string, unknown>>): Shape {
  const details = statusDetailsOf(fields)
  return {
    event_status: details.status,
    event_status_reason: details.reason,
    previous_start_date: details.previousStart,
    attendance_mode: details.attendance,
    online_url: details.onlineUrl,
  }
}

const SCHEMA = 'https://schema.org/'

const STATUS_LD: Record<EventStatus, string> = {
  scheduled: `${SCHEMA}EventScheduled`,
  cancelled: `${SCHEMA}EventCancelled`,
  postponed: `${SCHEMA}EventPostponed`,
  rescheduled: `${SCHEMA}EventRescheduled`,
  moved_online: `${SCHEMA}EventMovedOnline`,
}

const ATTENDANCE_LD: Record<AttendanceMode, string> = {
  offline: `${SCHEMA}OfflineEventAttendanceMode`,
  online: `${SCHEMA}OnlineEventAttendanceMode`,
  mixed: `${SCHEMA}MixedEventAttendanceMode`,
}

/** `eventAttendanceMode` and `eventStatus`, in the order the reference writes them. */
export function statusLd(details: StatusDetails): Shape {
  return { eventAttendanceMode: ATTENDANCE_LD[details.attendance], eventStatus: STATUS_LD[details.status] }
}

/** `previousStartDate` of a rescheduled event whose previous start is known (ISO with the zone's offset), else nothing. */
export function previousStartLd(details: StatusDetails, timezone: string): Shape {
  if (details.status !== 'rescheduled' || details.previousStart === '') return {}
  const instant = wallToInstant(details.previousStart, timezone)
  return Number.isFinite(instant) ? { previousStartDate: instantToIso(instant, timezone) } : {}
}

/**
 * `location` by attendance mode: the venue's Place (or `false` for a protected venue) offline; a VirtualLocation with
 * the online address online; both, as a list, for a mixed event. A part that is missing (no venue, no address, a
 * protected venue beside an online address) is left out; nothing when nothing is left.
 */
export function locationLd(
  details: StatusDetails,
  place: Shape | false | undefined,
): Shape | Shape[] | false | undefined {
  const online = details.onlineUrl === '' ? undefined : { '@type': 'VirtualLocation', url: details.onlineUrl }
  if (details.attendance === 'offline') return place
  if (details.attendance === 'online') return online
  if (place && online) return [place, online]
  return online ?? place
}
