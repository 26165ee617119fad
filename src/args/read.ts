import { NAMESPACE } from '../namespace.ts'
import { instantToWall } from '../time/zone.ts'
import {
  isCategoryId,
  isEventCategory,
  isLatitude,
  isLongitude,
  isEventId,
  isEventIdFormat,
  isEventSlug,
  isOrganizerId,
  isOrganizerIdList,
  isOrganizerSlug,
  isPositiveInt,
  isPositiveIntList,
  isPostTag,
  isStatusList,
  isString,
  isTagId,
  isTime,
  isVenueId,
  isVenueIdList,
  isVenueSlug,
  type ParamContext,
  type Validator,
} from './validators.ts'

// The arguments of every route, in the reference's declaration order and with its descriptions
// and defaults. One table drives validation, the namespace index, OPTIONS and /doc.

/** One argument: the schema keywords shown by the index, plus the checks that run on it. */
export interface ArgSpec {
  default?: unknown | ((ctx: ParamContext) => unknown)
  description?: string
  type?: 'integer' | 'string' | 'boolean' | 'number' | 'array' | 'object'
  format?: string
  items?: { type: string }
  required: boolean
  validate?: Validator
  sanitize?: (value: unknown, ctx: ParamContext) => unknown
}

export type ArgSet = Record<string, ArgSpec>

const perPageDefault = (ctx: ParamContext) => String(ctx.perPage)

/** `per_page` is silently capped (50 unless configured). */
const clampPerPage = (value: unknown, ctx: ParamContext) => Math.min(ctx.maxPerPage, Math.floor(Number(value)))

/** "yesterday 23:59" in UTC, as a site-local wall clock, as the reference computes its default window (docs/compatibility.md §18). */
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

/** The API index's only argument, as WordPress declares it for `/wp-json/`. */
export const API_INDEX_ARGS: ArgSet = {
  context: { default: 'view', required: false },
}

export const ROOT_ARGS: ArgSet = {
  namespace: { default: NAMESPACE, required: false },
  context: { default: 'view', required: false },
}

export const EVENT_LIST_ARGS: ArgSet = {
  page: {
    default: 1,
    description: 'The archive page to return',
    type: 'integer',
    required: false,
    validate: isPositiveInt,
  },
  per_page: {
    default: perPageDefault,
    description: 'The number of events to return on each page',
    type: 'integer',
    required: false,
    validate: isPositiveInt,
    sanitize: clampPerPage,
  },
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
}

export const EVENT_READ_ARGS: ArgSet = {
  id: { type: 'integer', description: 'the event post ID', required: true, validate: isEventIdFormat },
  password: { type: 'string', description: 'The event password', required: false, validate: isString },
}

export const EVENT_SLUG_READ_ARGS: ArgSet = {
  slug: { type: 'string', description: 'the event post name', required: true, validate: isEventSlug },
}

/** The list arguments of venues and organizers: the same table, with the record's own noun. */
function linkedListArgs(plural: 'Venues' | 'Organizers', singular: string): ArgSet {
  return {
    page: {
      default: 1,
      description: 'The archive page to return',
      type: 'integer',
      required: false,
      validate: isPositiveInt,
    },
    per_page: {
      default: perPageDefault,
      description: `The number of ${plural.toLowerCase()} to return on each page`,
      type: 'integer',
      required: false,
      validate: isPositiveInt,
      sanitize: clampPerPage,
    },
    search: {
      description: `${plural} should contain the specified string in the title, description or custom fields`,
      type: 'string',
      required: false,
      validate: isString,
    },
    event: {
      description: `${plural} should be related to this event`,
      type: 'integer',
      required: false,
      validate: isEventId,
    },
    has_events: { description: `${plural} should have events associated to them`, required: false },
    only_with_upcoming: {
      description: `${plural} should have upcoming events associated to them`,
      default: false,
      required: false,
    },
    status: { format: 'string', description: `The ${singular} post status`, required: false, validate: isStatusList },
  }
}

export const VENUE_LIST_ARGS: ArgSet = linkedListArgs('Venues', 'venue')

export const VENUE_READ_ARGS: ArgSet = {
  id: { type: 'integer', description: 'the venue post ID', required: true, validate: isVenueId },
}

export const VENUE_SLUG_READ_ARGS: ArgSet = {
  slug: { type: 'string', description: 'the venue post name', required: true, validate: isVenueSlug },
}

export const ORGANIZER_LIST_ARGS: ArgSet = linkedListArgs('Organizers', 'organizer')

export const ORGANIZER_READ_ARGS: ArgSet = {
  id: { type: 'integer', description: 'the organizer post ID', required: true, validate: isOrganizerId },
}

export const ORGANIZER_SLUG_READ_ARGS: ArgSet = {
  slug: { type: 'string', description: 'the organizer post name', required: true, validate: isOrganizerSlug },
}

/**
 * The list arguments of categories and tags: the same table, with the noun, the check of a term id
 * of that kind, and `parent` for categories only (tags have no hierarchy).
 */
function termListArgs(noun: string, isTerm: Validator, hierarchical: boolean): ArgSet {
  return {
    page: {
      default: 1,
      description: 'The archive page to return',
      type: 'integer',
      required: false,
      validate: isPositiveInt,
    },
    per_page: {
      default: perPageDefault,
      description: `The number of ${noun} to return on each page`,
      type: 'integer',
      required: false,
      validate: isPositiveInt,
      sanitize: clampPerPage,
    },
    search: {
      description: 'Limit results to those matching a string',
      type: 'string',
      required: false,
      validate: isString,
    },
    exclude: {
      description: 'Ensure result set exclude specific IDs',
      items: { type: 'integer' },
      required: false,
      validate: isTerm,
    },
    include: {
      description: 'Limit result set to specific IDs',
      items: { type: 'integer' },
      required: false,
      validate: isTerm,
    },
    order: {
      description: 'Order sort attribute ascending or descending',
      type: 'string',
      required: false,
      validate: isString,
    },
    orderby: { description: 'Sort collection by term attribute', type: 'string', required: false, validate: isString },
    hide_empty: {
      description: 'Whether to hide terms not assigned to any posts',
      type: 'boolean',
      default: '1',
      required: false,
    },
    ...(hierarchical
      ? {
          parent: {
            description: 'Limit result set to terms assigned to a specific parent',
            type: 'integer',
            required: false,
            validate: isTerm,
          },
        }
      : {}),
    post: {
      description: 'Limit result set to terms assigned to a specific post',
      type: 'integer',
      required: false,
      validate: isEventId,
    },
    event: {
      description: 'Limit result set to terms assigned to a specific event (an alias of the "post" parameter)',
      type: 'integer',
      required: false,
      validate: isEventId,
    },
    slug: {
      description: 'Limit result set to terms with a specific slug',
      type: 'string',
      required: false,
      validate: isString,
    },
  }
}

export const CATEGORY_LIST_ARGS: ArgSet = termListArgs('event categories', isEventCategory, true)

export const CATEGORY_READ_ARGS: ArgSet = {
  id: { type: 'integer', description: 'the event category term ID', required: true, validate: isCategoryId },
}

export const TAG_LIST_ARGS: ArgSet = termListArgs('event tags', isPostTag, false)

export const TAG_READ_ARGS: ArgSet = {
  id: { type: 'integer', description: 'the event tag term ID', required: true, validate: isTagId },
}
