import { EVENT_SCHEMA } from './event.ts'
import { COST_DETAILS_SCHEMA, DATE_DETAILS_SCHEMA } from './event-details.ts'
import { IMAGE_SIZE_SCHEMA, IMAGE_SCHEMA } from './media.ts'
import { ORGANIZER_SCHEMA } from './organizer.ts'
import { TERM_SCHEMA } from './term.ts'
import { VENUE_SCHEMA } from './venue.ts'

// The response schemas of GET /doc: the reference's, with its known errors corrected (docs/compatibility.md §17):
// `currency_position` without a trailing space, cost values as text, date details and term urls as
// objects, images as Image objects; plus Almanac's `lang` and `translations` (docs/compatibility.md §1).

/** `components.schemas` of the OpenAPI document. */
export const COMPONENT_SCHEMAS = {
  ImageSize: IMAGE_SIZE_SCHEMA,
  CostDetails: COST_DETAILS_SCHEMA,
  Term: TERM_SCHEMA,
  Image: IMAGE_SCHEMA,
  DateDetails: DATE_DETAILS_SCHEMA,
  Event: EVENT_SCHEMA,
  Venue: VENUE_SCHEMA,
  Organizer: ORGANIZER_SCHEMA,
} as const

const LANG = {
  type: 'string',
  description: 'The language of the text returned (zh-hans, en, ms, ta)',
  enum: ['zh-hans', 'en', 'ms', 'ta'],
}
const TRANSLATIONS = {
  type: 'object',
  description: 'Every language the record has a file in: {<lang>: {id, slug, rest_url}}',
  additionalProperties: {
    type: 'object',
    properties: { id: { type: 'integer' }, slug: { type: 'string' }, rest_url: { type: 'string' } },
  },
}
// Every top-level record ends with its language and its translations (docs/compatibility.md §1).
for (const name of ['Term', 'Event', 'Venue', 'Organizer'] as const)
  Object.assign(COMPONENT_SCHEMAS[name].properties, { lang: LANG, translations: TRANSLATIONS })

// A series' answer ends with its recurrence; an occurrence's names its series (docs/series-writes.md).
const WALL = { type: 'string', description: 'A wall clock in the event time zone, or a date' }
Object.assign(COMPONENT_SCHEMAS.Event.properties, {
  recurrence: {
    type: 'object',
    description:
      'A series only (Almanac): its RFC 5545 rule, extra and excluded dates, how many occurrences it serves and the next ones; an event write takes {rrule, rdate, exdate} back',
    properties: {
      rrule: { type: 'string' },
      rdate: { type: 'array', items: WALL },
      exdate: { type: 'array', items: WALL },
      count: { type: 'integer' },
      next: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            id: { type: 'integer' },
            start_date: { type: 'string' },
            end_date: { type: 'string' },
            utc_start_date: { type: 'string' },
            rest_url: { type: 'string' },
          },
        },
      },
    },
  },
  series: {
    type: 'object',
    description: 'An occurrence of a series only (Almanac): the series, and the start its rule gave the occurrence',
    properties: { id: { type: 'integer' }, rest_url: { type: 'string' }, start_date: { type: 'string' } },
  },
})
