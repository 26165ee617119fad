import type { ParamContext } from './validators.ts'

// The paging arguments every list table shares (events, venues, organizers, categories, tags).

/** `per_page`'s default: the configured page size (9 unless configured). */
export const perPageDefault = (ctx: ParamContext) => String(ctx.perPage)

/** `per_page` is silently capped (50 unless configured). */
export const clampPerPage = (value: unknown, ctx: ParamContext) => Math.min(ctx.maxPerPage, Math.floor(Number(value)))
