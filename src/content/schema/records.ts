import { Ajv, type ValidateFunction } from 'ajv'
import type { Kind } from '../model/kinds.ts'
import { ATTENDANCE_MODES, EVENT_STATUSES } from '../model/event-status.ts'
import { OVERRIDABLE, OVERRIDABLE_IN_TRANSLATION } from '../model/occurrence.ts'
import { STATUSES } from '../model/post-state.ts'
import { describeErrors } from './messages.ts'
import { WALL_CLOCK_PATTERN } from './nouns.ts'
import { isWebAddress, WEB_ADDRESS_FORMAT } from './web-address.ts'

// One JSON Schema per record kind: the single source of field names and types for content files,
// write validation and /doc. Text fields also take numbers because hand-written YAML turns
// `phone: 61234567` into one; the store turns them back into strings.

const WALL_CLOCK = { type: 'string', pattern: WALL_CLOCK_PATTERN } as const
const TEXT = { type: ['string', 'number'] } as const
// Empty, or an http(s) address: a website is a link every client follows (see web-address.ts).
const WEBSITE = { type: 'string', format: WEB_ADDRESS_FORMAT } as const
const FLAG = { type: 'boolean' } as const
const ID = { type: 'integer', minimum: 1 } as const
// Post ids stay below 10^9: above are the ids of occurrences of series (docs/recurrence.md).
/** The highest id a post (event, venue, organizer, media file) may have; a term's may be any safe integer. */
export const MAX_POST_ID = 999_999_999
const POST_ID = { type: 'integer', minimum: 1, maximum: MAX_POST_ID } as const
const DATE_OR_WALL = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}([ T]\\d{2}:\\d{2}(:\\d{2})?)?$' } as const
const DATES = { anyOf: [DATE_OR_WALL, { type: 'array', items: DATE_OR_WALL, maxItems: 1000 }] } as const
const RECURRENCE = {
  type: 'object',
  properties: { rrule: { type: 'string', minLength: 1, maxLength: 1000 }, rdate: DATES, exdate: DATES },
  additionalProperties: false,
} as const
const ID_LIST = { anyOf: [ID, { type: 'array', items: ID }] } as const
// In the order a message lists them: the usual ones first.
const STATUS = { enum: STATUSES }
const POST_FIELDS = {
  id: POST_ID,
  slug: TEXT,
  status: STATUS,
  trashed_from: { enum: STATUSES.filter((status) => status !== 'trash') },
  date: WALL_CLOCK,
  date_utc: WALL_CLOCK,
  modified: WALL_CLOCK,
  author: { type: 'integer', minimum: 0 },
  image: { type: ['string', 'integer'] },
  password: TEXT,
  description: TEXT,
} as const

/**
 * A series' changes to single occurrences, keyed by the occurrence's original start (a date, or a date and
 * time); each holds only fields an occurrence may change (src/content/model/occurrence.ts).
 */
function overridesOf(properties: Record<string, object>) {
  return {
    type: 'object',
    propertyNames: DATE_OR_WALL,
    maxProperties: 1000,
    additionalProperties: { type: 'object', properties, additionalProperties: false },
  } as const
}

/** An event's own fields (a series adds `recurrence` and `overrides`, whose fields are some of these). */
const EVENT_FIELDS = {
  ...POST_FIELDS,
  title: { type: 'string', minLength: 1 },
  excerpt: TEXT,
  start_date: WALL_CLOCK,
  end_date: WALL_CLOCK,
  all_day: FLAG,
  timezone: { type: 'string' },
  venue: ID_LIST,
  organizer: ID_LIST,
  categories: ID_LIST,
  tags: ID_LIST,
  cost: { anyOf: [TEXT, { type: 'array', items: TEXT }] },
  website: WEBSITE,
  featured: FLAG,
  sticky: FLAG,
  hide_from_listings: FLAG,
  show_map: FLAG,
  show_map_link: FLAG,
  ticketed: FLAG,
  post_parent: ID,
  // Status and attendance (docs/compatibility.md §32): exact values, an http(s) address, a wall clock or nothing
  // ('' in a series' override, which cannot hold null, clears the series' value for one occurrence).
  event_status: { enum: EVENT_STATUSES },
  event_status_reason: TEXT,
  previous_start_date: { anyOf: [WALL_CLOCK, { const: '' }] },
  attendance_mode: { enum: ATTENDANCE_MODES },
  online_url: WEBSITE,
} as const

/** JSON Schema of each kind's source file (the one that holds `id`). */
export const SOURCE_SCHEMAS: Record<Kind, object> = {
  events: {
    type: 'object',
    required: ['id', 'title', 'start_date', 'end_date'],
    properties: {
      ...EVENT_FIELDS,
      recurrence: RECURRENCE,
      overrides: overridesOf(Object.fromEntries(OVERRIDABLE.map((key) => [key, EVENT_FIELDS[key]]))),
    },
  },
  venues: {
    type: 'object',
    required: ['id', 'venue'],
    properties: {
      ...POST_FIELDS,
      venue: { type: 'string', minLength: 1 },
      address: TEXT,
      city: TEXT,
      country: TEXT,
      province: TEXT,
      state: TEXT,
      zip: TEXT,
      phone: TEXT,
      website: WEBSITE,
      stateprovince: TEXT,
      geo_lat: { type: 'number', minimum: -90, maximum: 90 },
      geo_lng: { type: 'number', minimum: -180, maximum: 180 },
      show_map: FLAG,
      show_map_link: FLAG,
    },
  },
  organizers: {
    type: 'object',
    required: ['id', 'organizer'],
    properties: {
      ...POST_FIELDS,
      organizer: { type: 'string', minLength: 1 },
      phone: TEXT,
      website: WEBSITE,
      email: { type: 'string' },
    },
  },
  categories: {
    type: 'object',
    required: ['id', 'name'],
    properties: {
      id: ID,
      name: { type: 'string', minLength: 1 },
      slug: TEXT,
      parent: { type: 'integer', minimum: 0 },
      description: TEXT,
    },
  },
  tags: {
    type: 'object',
    required: ['id', 'name'],
    properties: { id: ID, name: { type: 'string', minLength: 1 }, slug: TEXT, description: TEXT },
  },
}

/** A translation holds only translatable text, so every field of it is text. */
export const TRANSLATION_SCHEMA = {
  type: 'object',
  properties: {
    title: { type: 'string', minLength: 1 },
    venue: { type: 'string', minLength: 1 },
    organizer: { type: 'string', minLength: 1 },
    name: { type: 'string', minLength: 1 },
    overrides: overridesOf(
      Object.fromEntries(
        OVERRIDABLE_IN_TRANSLATION.map((key) => [key, key === 'title' ? { type: 'string', minLength: 1 } : TEXT]),
      ),
    ),
  },
  additionalProperties: { anyOf: [TEXT, { type: 'array', items: TEXT }] },
}

/** A record of each kind, as a message names it: "an event needs …". */
export const RECORD_NOUN: Record<Kind, string> = {
  events: 'an event',
  venues: 'a venue',
  organizers: 'an organizer',
  categories: 'a category',
  tags: 'a tag',
}

// allErrors: every problem of a file in one run. verbose: messages show the value and what was allowed.
// validateSchema off: checking these constant schemas against the meta-schema cost ~40 ms of every
// start; test/content/schema-valid.test.ts checks them once instead.
const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true, validateSchema: false })
ajv.addFormat(WEB_ADDRESS_FORMAT, (value: string) => value === '' || isWebAddress(value))
const sourceValidators = new Map<Kind, ValidateFunction>()
const translationValidator = ajv.compile(TRANSLATION_SCHEMA)

/** Checks a source file's front matter; returns one plain-words message per problem, none when valid. */
export function checkSource(kind: Kind, data: unknown): string[] {
  let validate = sourceValidators.get(kind)
  if (!validate) {
    validate = ajv.compile(SOURCE_SCHEMAS[kind])
    sourceValidators.set(kind, validate)
  }
  return validate(data) ? [] : describeErrors(validate.errors, RECORD_NOUN[kind])
}

/** Checks the translated fields of a translation file's front matter (the caller leaves out the rest). */
export function checkTranslation(kind: Kind, data: unknown): string[] {
  return translationValidator(data)
    ? []
    : describeErrors(translationValidator.errors, `a translation of ${RECORD_NOUN[kind]}`)
}
