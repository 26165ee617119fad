import type { ArgSet } from './types.ts'
import { isPositiveInt, type ParamContext } from './validators.ts'

// The paging arguments every list table shares (events, venues, organizers, categories, tags).

/** `per_page`'s default: the configured page size (9 unless configured). */
export const perPageDefault = (ctx: ParamContext) => String(ctx.perPage)

/** `per_page` is silently capped (50 unless configured). */
export const clampPerPage = (value: unknown, ctx: ParamContext) => Math.min(ctx.maxPerPage, Math.floor(Number(value)))

/** `page` and `per_page`, first in every list table, with the noun a page holds (`events`, `venues`…). */
export function pagingArgs(noun: string): ArgSet {
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
  }
}
