import type { TermKind } from '../content/model/kinds.ts'
import { listTerms } from '../query/terms.ts'
import { CATEGORY_LIST_ARGS, CATEGORY_READ_ARGS, TAG_LIST_ARGS, TAG_READ_ARGS } from '../args/terms.ts'
import type { ArgSet } from '../args/types.ts'
import { toTermResponse } from '../serialize/term.ts'
import { totals } from '../http/respond.ts'
import { link as siteLink, restRoot } from '../serialize/urls.ts'
import { createTermEndpoint, termWrites } from './term-writes.ts'
import type { RequestContext } from '../context/request.ts'
import type { RouteInput, ApiResult, RouteDef } from '../http/route.ts'

/** Term archives never 404; their links drop `per_page` and every filter (docs/compatibility.md §30). */
function list(kind: TermKind) {
  return (ctx: RequestContext, input: RouteInput): ApiResult => {
    const page = listTerms(kind, input.params, ctx)
    const base = `${restRoot(ctx)}${kind}/`
    const lang = ctx.langNamed ? `ml_language=${ctx.lang}` : ''
    const link = (n: number | null) => {
      const query = [n && n > 1 ? `page=${n}` : '', lang].filter(Boolean).join('&')
      return siteLink(ctx.site, query ? `${base}?${query}` : base)
    }
    const body: Record<string, unknown> = {
      rest_url: link(null),
      total: page.total,
      total_pages: page.totalPages,
      [kind]: page.items.map((record) => toTermResponse(record, ctx)),
    }
    if (page.page < page.totalPages) body.next_rest_url = link(page.page + 1)
    if (page.page > 1) body.previous_rest_url = link(page.page - 1)
    return { body, headers: totals(page.total, page.totalPages) }
  }
}

function single(kind: TermKind) {
  return (ctx: RequestContext, input: RouteInput): ApiResult => {
    const record = ctx.store.get(kind, input.params.id as number)!
    return { body: toTermResponse(record, ctx, { allow: ['GET'] }) }
  }
}

function routes(kind: TermKind, listArgs: ArgSet, readArgs: ArgSet): RouteDef[] {
  return [
    {
      path: `/${kind}`,
      pattern: `/${kind}`,
      endpoints: [{ methods: ['GET'], args: listArgs, handler: list(kind) }, createTermEndpoint(kind)],
    },
    {
      path: `/${kind}/:id`,
      pattern: `/${kind}/(?P<id>\\d+)`,
      endpoints: [{ methods: ['GET'], args: readArgs, handler: single(kind) }, ...termWrites(kind)],
    },
  ]
}

export const CATEGORY_ROUTES = routes('categories', CATEGORY_LIST_ARGS, CATEGORY_READ_ARGS)
export const TAG_ROUTES = routes('tags', TAG_LIST_ARGS, TAG_READ_ARGS)
