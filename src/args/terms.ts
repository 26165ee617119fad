import type { ArgSet } from './types.ts'
import { pagingArgs } from './paging.ts'
import { isCategoryId, isEventCategory, isEventId, isPostTag, isString, isTagId, type Validator } from './validators.ts'

// The read arguments of categories and tags: the list and one term by id.

/**
 * The list arguments of categories and tags: the same table, with the noun, the check of a term id
 * of that kind, and `parent` for categories only (tags have no hierarchy).
 */
function termListArgs(noun: string, isTerm: Validator, hierarchical: boolean): ArgSet {
  return {
    ...pagingArgs(noun),
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
