import { ATTENDANCE_MODES, EVENT_STATUSES } from '../content/model/event-status.ts'
import type { ArgSet } from './types.ts'
import { isTime } from './validators.ts'
import { isStringOrEmpty, isUrlOrEmpty } from './write-validators.ts'

// The event write arguments of Almanac's own for an event's status and attendance (docs/compatibility.md §32):
// the front matter's names and values. '' clears the text ones; the two lists take their values exactly.

export const STATUS_ARGS: ArgSet = {
  event_status: {
    type: 'string',
    enum: EVENT_STATUSES,
    description:
      'Almanac: the event status, one of scheduled (the default), cancelled, postponed, rescheduled, moved_online',
    required: false,
  },
  event_status_reason: {
    type: 'string',
    description: 'Almanac: why the event is cancelled, postponed, rescheduled or moved online, as plain text',
    required: false,
    validate: isStringOrEmpty,
  },
  previous_start_date: {
    type: 'string',
    description:
      'Almanac: where a rescheduled event used to start, in its time zone; a write that reschedules and moves the start records the old one when this is not sent',
    required: false,
    validate: (value, ctx) => value === '' || isTime(value, ctx),
  },
  attendance_mode: {
    type: 'string',
    enum: ATTENDANCE_MODES,
    description: 'Almanac: how people attend, one of offline (the default), online, mixed',
    required: false,
  },
  online_url: {
    type: 'string',
    description: 'Almanac: the http(s) address where people attend an online or mixed event',
    required: false,
    validate: isUrlOrEmpty,
  },
}
