import { EVENT_STATUSES } from '../content/model/event-status.ts'
import { instantToWall } from '../time/zone.ts'
import type { ArgSet } from './types.ts'
import { pagingArgs } from './paging.ts'
import {
  isEventCategory,
  isLatitude,
  isLongitude,
  isEventId,
  isEventIdFormat,
  isEventSlug,
  isOrganizerIdList,
  isPositiveIntList,
  isPostTag,
  isStatusList,
  isString,
  isTime,
  isVenueIdList,
  type ParamContext,
} from './validators.ts'

// The read arguments of events: the list with its filters, one event by id, one by slug.

/**
 * "yesterday 23:59" in UTC, as a site-local wall clock, as the reference computes its default window
 * (docs/compatibility.md §18).
 */
function defaultStartDate(ctx: ParamContext): string {
  const yesterday = new Date(ctx.now - 86_400_000).toISOString().slice(0, 10)
  return instantToWall(Date.parse(`${yesterday}T23:59:00Z`), ctx.site.timezone)
}

/** Now plus 24 months, read off a UTC clock, as the reference does (docs/compatibility.md §18). */
function defaultEndDate(ctx: ParamContext): string {
  const now = new Date(ctx.now)
  now.setUTCMonth(now.getUTCMonth() + 24)
  return instantToWall(now.getTime(), 'UTC')
}

export const EVENT_LIST_ARGS: ArgSet = {
  ...pagingArgs('events'),
  start_date: {
    default: defaultStartDate,
    description: 'Events that start on the specified date',
    required: false,
    validate: isTime,
  },
  end_date: {
    default: defaultEndDate,
    description: 'Events that end on the specified date',
    required: false,
    validate: isTime,
  },
  starts_before: { description: 'Events that start before the specified date', required: false, validate: isTime },
  starts_after: { description: 'Events that start after the specified date', required: false, validate: isTime },
  ends_before: { description: 'Events that end before the specified date', required: false, validate: isTime },
  ends_after: { description: 'Events that end after the specified date', required: false, validate: isTime },
  strict_dates: {
    default: 'false',
    description:
      'Dates set using the start_date/end_date, starts_*/ends_* are set to start at the specified times. The default behavior is to include the entire days.',
    required: false,
    validate: isString,
  },
  search: {
    description: 'Events should contain the specified string in the title or description',
    type: 'string',
    required: false,
    validate: isString,
  },
  categories: {
    description: 'Events should be assigned one of the specified categories slugs or IDs',
    items: { type: 'integer' },
    required: false,
    validate: isEventCategory,
  },
  tags: {
    description: 'Events should be assigned one of the specified tags slugs or IDs',
    items: { type: 'integer' },
    required: false,
    validate: isPostTag,
  },
  venue: {
    description: 'Events should be assigned one of the specified venue IDs',
    items: { type: 'integer' },
    required: false,
    validate: isVenueIdList,
  },
  organizer: {
    description: 'Events should be assigned one of the specified organizer IDs',
    items: { type: 'integer' },
    required: false,
    validate: isOrganizerIdList,
  },
  featured: { type: 'boolean', description: 'Events should be filtered by their featured status', required: false },
  status: { format: 'string', description: 'The event post status', required: false, validate: isStatusList },
  geoloc: {
    type: 'boolean',
    description: 'Requires Events Calendar Pro. Events should be filtered by whether their venue has geolocation data',
    required: false,
  },
  geoloc_lat: {
    format: 'double',
    description:
      'Requires Events Calendar Pro. Events should be filtered by their venue latitude location, must also provide geoloc_lng',
    required: false,
    validate: isLatitude,
  },
  geoloc_lng: {
    format: 'double',
    description:
      'Requires Events Calendar Pro. Events should be filtered by their venue longitude location, must also provide geoloc_lat',
    required: false,
    validate: isLongitude,
  },
  include: {
    description:
      'Include events with one of the post IDs specified in the array of CSV list, date filters will be ignored.',
    items: { type: 'integer' },
    required: false,
    validate: isPositiveIntList,
  },
  post_parent: {
    type: 'integer',
    description: 'Events should be filtered by their post_parent being the specified one.',
    required: false,
    validate: isEventId,
  },
  ticketed: { type: 'boolean', description: 'Filter events with or without tickets.', required: false },
  // Almanac's own (docs/compatibility.md §32).
  event_status: {
    description:
      'Almanac: events with one of the specified event statuses (scheduled, cancelled, postponed, rescheduled, moved_online), in an array or CSV list',
    items: { type: 'string', enum: EVENT_STATUSES },
    required: false,
  },
}

export const EVENT_READ_ARGS: ArgSet = {
  id: { type: 'integer', description: 'the event post ID', required: true, validate: isEventIdFormat },
  password: { type: 'string', description: 'The event password', required: false, validate: isString },
}

export const EVENT_SLUG_READ_ARGS: ArgSet = {
  slug: { type: 'string', description: 'the event post name', required: true, validate: isEventSlug },
}
