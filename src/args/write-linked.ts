import type { ArgSet } from './types.ts'
import { isString, isTime } from './validators.ts'
import { isImageOrEmpty, isPostStatus, isStringOrEmpty, isUrlOrEmpty, isUserId } from './write-validators.ts'

// The create arguments of venues and organizers, in the reference's order and wording; updates take
// them all optional (asUpdate in types.ts).

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
