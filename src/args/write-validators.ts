import { STATUSES } from '../content/model/post-state.ts'
import { isTimeZone } from '../time/zone.ts'
import { isPositiveInt, type Validator } from './validators.ts'
import { isWebAddress } from '../content/schema/web-address.ts'

export const isStringOrEmpty: Validator = (value) => typeof value === 'string'

export const isPostStatus: Validator = (value) => typeof value === 'string' && STATUSES.includes(value)

export const isTimezoneOrEmpty: Validator = (value) => value === '' || (typeof value === 'string' && isTimeZone(value))

/** An existing user's id (the reference's `is_user_id`). */
export const isUserId: Validator = (value, ctx) =>
  isPositiveInt(value, ctx) && (ctx.userExists?.(Number(value)) ?? false)

/** Empty, or a web address (see content/schema/web-address.ts): the rule content files follow too. */
export const isUrlOrEmpty: Validator = (value) =>
  value === '' || value === null || (typeof value === 'string' && isWebAddress(value))

/**
 * docs/compatibility.md §15: a media id (number or digits), a path under content/media/, or an absolute
 * http(s) URL.
 */
export const isImage: Validator = (value, ctx) => {
  if (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value)))
    return ctx.store.media.byId(Number(value)) !== undefined
  if (typeof value !== 'string' || value === '') return false
  if (/^https?:\/\//i.test(value)) return isUrlOrEmpty(value, ctx)
  return ctx.store.media.byPath(value.replace(/^(content\/)?media\//, '')) !== undefined
}

export const isImageOrEmpty: Validator = (value, ctx) => value === '' || value === null || isImage(value, ctx)

/** A cost is text, a number, or a list of them; anything else is not a price. */
export const isCost: Validator = (value) =>
  typeof value === 'string' ||
  typeof value === 'number' ||
  (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number'))
