import { mayRead } from '../context/request.ts'
import type { LinkedKind } from '../content/model/kinds.ts'
import type { ContentRecord } from '../content/store.ts'
import { apiError } from '../errors.ts'
import { listLinked } from '../query/linked.ts'
import { pageLinks } from '../query/paging.ts'
import { ownership } from './access.ts'
import { createLinkedEndpoint, linkedWrites } from './linked-writes.ts'
import {
  ORGANIZER_LIST_ARGS,
  ORGANIZER_READ_ARGS,
  ORGANIZER_SLUG_READ_ARGS,
  VENUE_LIST_ARGS,
  VENUE_READ_ARGS,
  VENUE_SLUG_READ_ARGS,
} from '../args/linked.ts'
import { findBySlug } from '../content/lookup.ts'
import { toOrganizerResponse, toVenueResponse } from '../serialize/linked.ts'
import { totals } from '../http/respond.ts'
import { listLinks, restRoot, withLang } from '../serialize/urls.ts'
import type { RequestContext } from '../context/request.ts'
import type { RouteInput, ApiResult, RouteDef } from '../http/route.ts'

const SERIALIZE = { venues: toVenueResponse, organizers: toOrganizerResponse }
const SINGULAR = { venues: 'venue', organizers: 'organizer' } as const

function list(kind: LinkedKind) {
  return (ctx: RequestContext, input: RouteInput): ApiResult => {
    const { page, query } = listLinked(kind, input.params, ctx)
    if (page.page > 1 && page.items.length === 0) throw apiError(`${SINGULAR[kind]}-archive-page-not-found`)
    const links = listLinks(ctx.site, pageLinks(`${restRoot(ctx)}${kind}/`, withLang(query, ctx), page, false))
    const items = page.items.map((record) => SERIALIZE[kind](record, ctx, { top: true }))
    const body = { [kind]: items, ...links, total: page.total, total_pages: page.totalPages }
    return { body, headers: totals(page.total, page.totalPages) }
  }
}

/** One venue or organizer; the id or slug was checked by its argument already (400 when unknown). */
function single(kind: LinkedKind, by: 'id' | 'slug') {
  return (ctx: RequestContext, input: RouteInput): ApiResult => {
    const record =
      by === 'id'
        ? ctx.store.get(kind, input.params.id as number)!
        : findBySlug(ctx, kind, input.params.slug as string)!
    return { body: SERIALIZE[kind](accessible(kind, record, ctx), ctx, { top: true, jsonLd: true }) }
  }
}

/**
 * Unpublished venues and organizers are for those who may read them: editors, or their authors
 * (docs/compatibility.md §20).
 */
function accessible(kind: LinkedKind, record: ContentRecord, ctx: RequestContext): ContentRecord {
  const { owner, status } = ownership(record)
  if (!ctx.store.langOf(record, ctx.lang)) throw apiError(`${SINGULAR[kind]}-not-accessible`)
  if (!mayRead(ctx.reader, status, owner)) throw apiError(`${SINGULAR[kind]}-not-accessible`)
  return record
}

function routes(
  kind: LinkedKind,
  args: { list: typeof VENUE_LIST_ARGS; read: typeof VENUE_READ_ARGS; slug: typeof VENUE_SLUG_READ_ARGS },
): RouteDef[] {
  return [
    {
      path: `/${kind}`,
      pattern: `/${kind}`,
      endpoints: [{ methods: ['GET'], args: args.list, handler: list(kind) }, createLinkedEndpoint(kind)],
    },
    {
      path: `/${kind}/:id`,
      pattern: `/${kind}/(?P<id>\\d+)`,
      endpoints: [{ methods: ['GET'], args: args.read, handler: single(kind, 'id') }, ...linkedWrites(kind, true)],
    },
    {
      path: `/${kind}/by-slug/:slug`,
      pattern: `/${kind}/by-slug/(?P<slug>[^/]+)`,
      endpoints: [{ methods: ['GET'], args: args.slug, handler: single(kind, 'slug') }, ...linkedWrites(kind, false)],
    },
  ]
}

export const VENUE_ROUTES = routes('venues', {
  list: VENUE_LIST_ARGS,
  read: VENUE_READ_ARGS,
  slug: VENUE_SLUG_READ_ARGS,
})
export const ORGANIZER_ROUTES = routes('organizers', {
  list: ORGANIZER_LIST_ARGS,
  read: ORGANIZER_READ_ARGS,
  slug: ORGANIZER_SLUG_READ_ARGS,
})
