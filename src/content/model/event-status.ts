// An event's status and how people attend it (docs/compatibility.md §32): five optional front-matter
// fields, read here once for the JSON answer, JSON-LD, the list filter and the iCalendar feeds.

/** The values of `event_status`, the default first; Google's and schema.org's EventStatusType. */
export const EVENT_STATUSES = ['scheduled', 'cancelled', 'postponed', 'rescheduled', 'moved_online'] as const
export type EventStatus = (typeof EVENT_STATUSES)[number]

/** The values of `attendance_mode`, the default first; schema.org's EventAttendanceModeEnumeration. */
export const ATTENDANCE_MODES = ['offline', 'online', 'mixed'] as const
export type AttendanceMode = (typeof ATTENDANCE_MODES)[number]

/** The five fields, as front matter, API bodies, series overrides and the JSON answer name them, in answer order. */
export const STATUS_FIELDS = [
  'event_status',
  'event_status_reason',
  'previous_start_date',
  'attendance_mode',
  'online_url',
] as const

type Fields = Readonly<Record<string, unknown>>

/** Whether a value is one of the event statuses, written exactly (lower case, no aliases). */
export function isEventStatus(value: unknown): value is EventStatus {
  return typeof value === 'string' && (EVENT_STATUSES as readonly string[]).includes(value)
}

/** Whether a value is one of the attendance modes, written exactly. */
export function isAttendanceMode(value: unknown): value is AttendanceMode {
  return typeof value === 'string' && (ATTENDANCE_MODES as readonly string[]).includes(value)
}

/** An event's status: its `event_status`, else `scheduled`. */
export function eventStatusOf(fields: Fields): EventStatus {
  return isEventStatus(fields.event_status) ? fields.event_status : 'scheduled'
}

/** How people attend an event: its `attendance_mode`, else `online` for an event moved online, else `offline`. */
export function attendanceOf(fields: Fields): AttendanceMode {
  if (isAttendanceMode(fields.attendance_mode)) return fields.attendance_mode
  return eventStatusOf(fields) === 'moved_online' ? 'online' : 'offline'
}

/** The five fields as an answer shows them: normalized values, '' for text that is not there. */
export interface StatusDetails {
  status: EventStatus
  /** Plain text, '' when none (in the language the fields are in). */
  reason: string
  /** `YYYY-MM-DD HH:MM:SS` in the event's zone, '' when none. */
  previousStart: string
  attendance: AttendanceMode
  /** An http(s) address, '' when none. */
  onlineUrl: string
}

/** All five, normalized: what the JSON answer, JSON-LD and the feeds read. */
export function statusDetailsOf(fields: Fields): StatusDetails {
  return {
    status: eventStatusOf(fields),
    reason: textOf(fields.event_status_reason),
    previousStart: wallOf(fields.previous_start_date),
    attendance: attendanceOf(fields),
    onlineUrl: textOf(fields.online_url),
  }
}

function textOf(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : ''
}

/** `2026-07-14T19:00` → `2026-07-14 19:00:00`; '' for anything that is not text. */
function wallOf(value: unknown): string {
  if (typeof value !== 'string' || value === '') return ''
  const text = value.replace('T', ' ')
  return text.length === 16 ? `${text}:00` : text
}
