import type { ArgSet, ArgSpec } from './read.ts'
import {
  isCost,
  isEventCategory,
  isImage,
  isImageOrEmpty,
  isOrganizerIdOrEntryOrEmpty,
  isPostStatus,
  isString,
  isStringOrEmpty,
  isTime,
  isTimezoneOrEmpty,
  isUrlOrEmpty,
  isUserId,
  isVenueIdOrEntryOrEmpty,
} from './write-validators.ts'

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
    validate: isVenueIdOrEntryOrEmpty,
  },
  organizer: {
    default: null,
    items: { type: 'integer' },
    description: 'The event organizer IDs or data',
    required: false,
    validate: isOrganizerIdOrEntryOrEmpty,
  },
}

export const VENUE_CREATE_ARGS: ArgSet = {
  author: { type: 'integer', description: 'The venue author ID', required: false, validate: isUserId },
  date: { type: 'string', description: 'The venue publication date', required: false, validate: isTime },
  date_utc: {
    type: 'string',
    description: 'The venue publication date (UTC time zone)',
    required: false,
    validate: isTime,
  },
  venue: { type: 'string', description: 'The venue name', required: true, validate: isString },
  description: {
    type: 'string',
    default: null,
    description: 'The venue description',
    required: false,
    validate: isStringOrEmpty,
  },
  status: { type: 'string', description: 'The venue post status', required: false, validate: isPostStatus },
  show_map: {
    type: 'string',
    default: null,
    description: 'Whether events linked to the venue should show a map or not',
    required: false,
  },
  show_map_link: {
    type: 'string',
    default: null,
    description: 'Whether events linked to the venue should show a map link or not',
    required: false,
  },
  address: {
    type: 'string',
    default: null,
    description: 'The venue address',
    required: false,
    validate: isStringOrEmpty,
  },
  city: { type: 'string', default: null, description: 'The venue city', required: false, validate: isStringOrEmpty },
  country: {
    type: 'string',
    default: null,
    description: 'The venue country',
    required: false,
    validate: isStringOrEmpty,
  },
  province: {
    type: 'string',
    default: null,
    description: 'The venue province',
    required: false,
    validate: isStringOrEmpty,
  },
  state: { type: 'string', default: null, description: 'The venue state', required: false, validate: isStringOrEmpty },
  zip: { type: 'string', default: null, description: 'The venue ZIP code', required: false, validate: isStringOrEmpty },
  phone: {
    type: 'string',
    default: null,
    description: 'The venue phone number',
    required: false,
    validate: isStringOrEmpty,
  },
  stateprovince: {
    type: 'string',
    default: null,
    description: 'The venue state and province',
    required: false,
    validate: isStringOrEmpty,
  },
  website: {
    type: 'string',
    default: null,
    description: 'The venue website URL',
    required: false,
    validate: isUrlOrEmpty,
  },
  image: {
    default: null,
    description: 'The venue featured image ID or URL',
    required: false,
    validate: isImageOrEmpty,
  },
}

export const ORGANIZER_CREATE_ARGS: ArgSet = {
  author: {
    type: 'integer',
    default: null,
    description: 'The organizer author ID',
    required: false,
    validate: isUserId,
  },
  date: {
    type: 'string',
    default: null,
    description: 'The organizer publication date',
    required: false,
    validate: isTime,
  },
  date_utc: {
    type: 'string',
    default: null,
    description: 'The organizer publication date (UTC time zone)',
    required: false,
    validate: isTime,
  },
  organizer: { type: 'string', default: null, description: 'The organizer name', required: true, validate: isString },
  description: {
    type: 'string',
    default: null,
    description: 'The organizer description',
    required: false,
    validate: isStringOrEmpty,
  },
  status: {
    type: 'string',
    default: null,
    description: 'The organizer post status',
    required: false,
    validate: isPostStatus,
  },
  phone: {
    type: 'string',
    default: null,
    description: 'The organizer phone number',
    required: false,
    validate: isStringOrEmpty,
  },
  website: {
    type: 'string',
    default: null,
    description: 'The organizer website',
    required: false,
    validate: isUrlOrEmpty,
  },
  email: {
    type: 'string',
    default: null,
    description: 'The organizer e-mail address',
    required: false,
    validate: isStringOrEmpty,
  },
  image: {
    default: null,
    description: 'The organizer featured image ID or URL',
    required: false,
    validate: isImageOrEmpty,
  },
}

export const CATEGORY_CREATE_ARGS: ArgSet = {
  name: { type: 'string', description: 'The event category name', required: true, validate: isString },
  description: { type: 'string', description: 'The event category description', required: false, validate: isString },
  slug: { type: 'string', description: 'The event category slug', required: false, validate: isString },
  parent: { type: 'integer', description: 'The event category slug', required: false, validate: isEventCategory },
}

export const TAG_CREATE_ARGS: ArgSet = {
  name: { type: 'string', description: 'The event tag name', required: true, validate: isString },
  description: { type: 'string', description: 'The event tag description', required: false, validate: isString },
  slug: { type: 'string', description: 'The event tag slug', required: false, validate: isString },
}

/** The update form of a create table: the same arguments, none required, after `first`. */
export function asUpdate(create: ArgSet, first: ArgSet): ArgSet {
  const optional: ArgSet = { ...first }
  for (const [name, spec] of Object.entries(create)) optional[name] = { ...spec, required: false } satisfies ArgSpec
  return optional
}
