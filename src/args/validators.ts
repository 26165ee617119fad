import { canEditPosts } from '../auth/roles.ts'
import type { RequestContext } from '../context/request.ts'
import type { Kind } from '../content/model/kinds.ts'
import { STATUSES } from '../content/model/post-state.ts'
import { findBySlug, findTerm } from '../content/lookup.ts'
import { parseTime } from '../time/parse.ts'

/**
 * What a check may consult: the records, the request's language and clock, the site, the caller and the
 * paging limits.
 */
export type ParamContext = Pick<
  RequestContext,
  'store' | 'lang' | 'now' | 'site' | 'perPage' | 'maxPerPage' | 'caller' | 'userExists'
>

/** A validate callback, as WordPress runs them: true when the value passes. */
export type Validator = (value: unknown, ctx: ParamContext) => boolean

/** CSV or array to a list of trimmed, non-empty items (Arr `list_to_array`). */
export function toList(value: unknown): string[] {
  const items = Array.isArray(value)
    ? value
    : typeof value === 'string' || typeof value === 'number'
      ? String(value).split(',')
      : []
  return items
    .map((item) => (typeof item === 'string' || typeof item === 'number' ? String(item).trim() : ''))
    .filter((item) => item !== '')
}

const isNumeric = (value: unknown) =>
  (typeof value === 'number' && Number.isFinite(value)) ||
  (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value))

export const isPositiveInt: Validator = (value) =>
  isNumeric(value) && Number.isInteger(Number(value)) && Number(value) > 0

export const isPositiveIntList: Validator = (value, ctx) => {
  const list = toList(value)
  return list.length > 0 && list.every((item) => isPositiveInt(item, ctx))
}

export const isTime: Validator = (value, ctx) => parseTime(value, ctx.site.timezone, ctx.now) !== null

export const isString: Validator = (value) => typeof value === 'string' && value !== ''

export const isEventIdFormat: Validator = (value) =>
  isNumeric(value) && Number.isInteger(Number(value)) && Number(value) >= 0

/** Whether a value is the numeric id of a record of `kind` readable in the request's language, in any status. */
function recordId(kind: Kind): Validator {
  return (value, ctx) => {
    const record = isPositiveInt(value, ctx) ? ctx.store.get(kind, Number(value)) : undefined
    return record !== undefined && ctx.store.langOf(record, ctx.lang) !== null
  }
}

/** Whether a value is the slug of a record of `kind` in the request's language. */
function recordSlug(kind: Kind): Validator {
  return (value, ctx) => typeof value === 'string' && findBySlug(ctx, kind, value) !== undefined
}

function termList(kind: 'categories' | 'tags'): Validator {
  return (value, ctx) => {
    const list = toList(value)
    return list.length > 0 && list.every((item) => findTerm(ctx, kind, item) !== undefined)
  }
}

function idList(kind: Kind): Validator {
  return (value, ctx) => {
    const list = toList(value)
    return list.length > 0 && list.every((item) => recordId(kind)(item, ctx))
  }
}

/**
 * Anonymous callers may ask for `publish` only; others for any registered status, but not `any`
 * (docs/compatibility.md §20).
 */
export const isStatusList: Validator = (value, ctx) => {
  const list = toList(value)
  if (list.length === 0) return false
  if (!canEditPosts(ctx.caller)) return list.length === 1 && list[0] === 'publish'
  return list.every((status) => STATUSES.includes(status))
}

/** A latitude or longitude in degrees. */
function coordinate(limit: number): Validator {
  return (value) => isNumeric(value) && Math.abs(Number(value)) <= limit
}

export const isLatitude = coordinate(90)
export const isLongitude = coordinate(180)
export const isEventId = recordId('events')
export const isVenueId = recordId('venues')
export const isOrganizerId = recordId('organizers')
export const isCategoryId = recordId('categories')
export const isTagId = recordId('tags')
export const isEventSlug = recordSlug('events')
export const isVenueSlug = recordSlug('venues')
export const isOrganizerSlug = recordSlug('organizers')
export const isEventCategory = termList('categories')
export const isPostTag = termList('tags')
export const isVenueIdList = idList('venues')
export const isOrganizerIdList = idList('organizers')
