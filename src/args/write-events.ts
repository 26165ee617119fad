import { parseOrganizers, parseVenue } from './linked-entries.ts'
import type { ArgSet } from './types.ts'
import { isString, isTime } from './validators.ts'
import { STATUS_ARGS } from './write-status.ts'
import { isCost, isImage, isPostStatus, isTimezoneOrEmpty, isUrlOrEmpty, isUserId } from './write-validators.ts'

// The arguments of the write routes, in the reference's order and wording.
// Updates take the same arguments, all optional, after the record's own id (and, for events, password).
// An event's description and excerpt, and a term's description, are the reference's is_string: '' is 400
// on create. Event updates take '' for them to clear the field (docs/compatibility.md §4; see EVENT_UPDATE_ARGS).

export const EVENT_CREATE_ARGS: ArgSet = {
  author: { type: 'integer', description: 'The event author ID', required: false, validate: isUserId },
  date: { type: 'string', description: 'The event publication date', required: false, validate: isTime },
  date_utc: {
    type: 'string',
    description: 'The event publication date (UTC time zone)',
    required: false,
    validate: isTime,
  },
  title: { type: 'string', description: 'The event title', required: true, validate: isString },
  description: { type: 'string', description: 'The event description', required: false, validate: isString },
  slug: { type: 'string', description: 'The event slug', required: false, validate: isString },
  excerpt: { type: 'string', description: 'The event excerpt', required: false, validate: isString },
  status: { type: 'string', description: 'The event post status', required: false, validate: isPostStatus },
  timezone: { type: 'string', description: 'The event time zone', required: false, validate: isTimezoneOrEmpty },
  all_day: {
    default: false,
    type: 'boolean',
    description: 'Whether the event lasts the whole day or not',
    required: false,
  },
  start_date: { type: 'string', description: 'The event start date and time', required: true, validate: isTime },
  end_date: { type: 'string', description: 'The event end date and time', required: true, validate: isTime },
  image: { description: 'The event featured image ID or URL', required: false, validate: isImage },
  cost: { description: 'The event cost', required: false, validate: isCost },
  website: { default: null, description: 'The event website URL', required: false, validate: isUrlOrEmpty },
  show_map: { type: 'boolean', description: 'Whether the event should show a map or not', required: false },
  show_map_link: { type: 'boolean', description: 'Whether the event should show a map link or not', required: false },
  hide_from_listings: {
    type: 'boolean',
    description: 'Whether events should be hidden in the calendar view or not',
    required: false,
  },
  sticky: {
    type: 'boolean',
    description: 'Whether the event should be sticky in the calendar view or not',
    required: false,
  },
  featured: {
    type: 'boolean',
    description: 'Whether the event should be featured on the site or not',
    required: false,
  },
  categories: {
    default: null,
    items: { type: 'integer' },
    description: 'The event category ID or name',
    required: false,
  },
  tags: { default: null, items: { type: 'integer' }, description: 'The event tag ID or name', required: false },
  venue: {
    default: null,
    items: { type: 'integer' },
    description: 'The event venue IDs or data',
    required: false,
    parse: parseVenue,
  },
  organizer: {
    default: null,
    items: { type: 'integer' },
    description: 'The event organizer IDs or data',
    required: false,
    parse: parseOrganizers,
  },
  // Almanac's own (docs/compatibility.md §32): the event's status and how people attend it.
  ...STATUS_ARGS,
  // Almanac's own (docs/series-writes.md): checked by the write, which says what is wrong in plain words.
  recurrence: {
    description:
      'Almanac: makes the event a series, {rrule, rdate, exdate} (an RFC 5545 RRULE, extra and excluded dates as wall clocks in the event time zone; a text is the RRULE alone); null makes a series a single event again',
    required: false,
  },
}
