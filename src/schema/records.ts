import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import type { Kind } from '../content/kinds.ts'

// One JSON Schema per record kind: the single source of field names and types for content files,
// write validation and /doc. Text fields also take numbers because hand-written YAML turns
// `phone: 61234567` into one; the store turns them back into strings.

const WALL_CLOCK = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}[ T]\\d{2}:\\d{2}(:\\d{2})?$' } as const
const TEXT = { type: ['string', 'number'] } as const
const FLAG = { type: 'boolean' } as const
const ID = { type: 'integer', minimum: 1 } as const
const ID_LIST = { anyOf: [ID, { type: 'array', items: ID }] } as const
const STATUS = { enum: ['publish', 'future', 'draft', 'pending', 'private', 'trash'] } as const
const POST_FIELDS = {
  id: ID,
  slug: TEXT,
  status: STATUS,
  date: WALL_CLOCK,
  date_utc: WALL_CLOCK,
  modified: WALL_CLOCK,
  author: { type: 'integer', minimum: 0 },
  image: { type: ['string', 'integer'] },
  password: TEXT,
  description: TEXT,
} as const

/** JSON Schema of each kind's source file (the one that holds `id`). */
export const SOURCE_SCHEMAS: Record<Kind, object> = {
  events: {
    type: 'object',
    required: ['id', 'title', 'start_date', 'end_date'],
    properties: {
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
      website: { type: 'string' },
      featured: FLAG,
      sticky: FLAG,
      hide_from_listings: FLAG,
      show_map: FLAG,
      show_map_link: FLAG,
      ticketed: FLAG,
      post_parent: ID,
    },
  },
  venues: {
    type: 'object',
    required: ['id', 'venue'],
    properties: {
      ...POST_FIELDS,
      venue: { type: 'string', minLength: 1 },
      address: TEXT, city: TEXT, country: TEXT, province: TEXT, state: TEXT, zip: TEXT, phone: TEXT,
      website: { type: 'string' },
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
      website: { type: 'string' },
      email: { type: 'string' },
    },
  },
  categories: {
    type: 'object',
    required: ['id', 'name'],
    properties: { id: ID, name: { type: 'string', minLength: 1 }, slug: TEXT, parent: { type: 'integer', minimum: 0 }, description: TEXT },
  },
  tags: {
    type: 'object',
    required: ['id', 'name'],
    properties: { id: ID, name: { type: 'string', minLength: 1 }, slug: TEXT, description: TEXT },
  },
}

/** A translation holds only translatable text, so every field of it is text. */
const TRANSLATION_SCHEMA = {
  type: 'object',
  properties: {
    title: { type: 'string', minLength: 1 },
    venue: { type: 'string', minLength: 1 },
    organizer: { type: 'string', minLength: 1 },
    name: { type: 'string', minLength: 1 },
  },
  additionalProperties: { anyOf: [TEXT, { type: 'array', items: TEXT }] },
}

const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true })
const sourceValidators = new Map<Kind, ValidateFunction>()
const translationValidator = ajv.compile(TRANSLATION_SCHEMA)

/** Checks a source file's front matter; returns readable problems, empty when valid. */
export function checkSource(kind: Kind, data: unknown): string[] {
  let validate = sourceValidators.get(kind)
  if (!validate) {
    validate = ajv.compile(SOURCE_SCHEMAS[kind])
    sourceValidators.set(kind, validate)
  }
  return validate(data) ? [] : describe(validate.errors)
}

/** Checks a translation file's front matter. */
export function checkTranslation(data: unknown): string[] {
  return translationValidator(data) ? [] : describe(translationValidator.errors)
}

function describe(errors: ErrorObject[] | null | undefined): string[] {
  const seen = new Set<string>()
  for (const error of errors ?? []) {
    const field = error.instancePath.replace(/^\//, '').replace(/\//g, '.')
    const where = field || (error.keyword === 'required' ? String(error.params.missingProperty) : 'front matter')
    const what = error.keyword === 'required' ? 'is required' : error.keyword === 'pattern' ? 'must be YYYY-MM-DD HH:MM:SS' : error.message
    seen.add(`${where} ${what}`)
  }
  return [...seen]
}
