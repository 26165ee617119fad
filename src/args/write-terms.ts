import type { ArgSet } from './types.ts'
import { isEventCategory, isString } from './validators.ts'

// The create arguments of categories and tags, in the reference's order and wording.

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
