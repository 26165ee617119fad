import { mayRead } from '../context/request.ts'
import type { ContentRecord } from '../content/store.ts'
import { apiError } from '../errors.ts'
import { listEvents } from '../query/events.ts'
import { canChangePost } from '../auth/roles.ts'
import { ownership } from './access.ts'
import { EVENT_LIST_ARGS, EVENT_READ_ARGS, EVENT_SLUG_READ_ARGS } from '../args/events.ts'
import { findBySlug } from '../content/lookup.ts'
import { composedTag, totals } from '../http/respond.ts'
import { eventKey, LISTED, toEventJson } from '../serialize/event.ts'
import { isLocked } from '../serialize/protect.ts'
import { listLinks, restRoot, withLang } from '../serialize/urls.ts'
import { isTrueWord, ownUtf8 } from '../text.ts'
import { eventFeed, listFeed, requireWholePoint } from './feeds.ts'
import { linksAndTotals, pageLinks } from '../query/paging.ts'
import { CREATE_EVENT, EVENT_ID_WRITES, EVENT_SLUG_WRITES } from './event-writes.ts'
import type { RequestContext } from '../context/request.ts'
import type { RouteInput, ApiResult, RouteDef } from '../http/route.ts'

/** `GET /events`: the archive with the default window, paging and links. */
async function list(ctx: RequestContext, input: RouteInput): Promise<ApiResult> {
  // The Events Calendar's `?ical=1`: the same query as a feed (docs/feeds.md).
  if (isTrueWord(input.query.ical)) return listFeed(ctx, input)
  // A language's search index is built on its first search, between other requests.
  if (input.params.search !== undefined) await ctx.indexes.search(ctx.lang).ready
  requireWholePoint(input.params)
  const { page, query, encoded } = listEvents(input.params, input.given, ctx)
  if (page.page > 1 && page.items.length === 0) throw apiError('event-archive-page-not-found')
  const base = `${restRoot(ctx)}events/`
  const links = listLinks(ctx.site, pageLinks(base, withLang(query, ctx), page, encoded))
  const key = eventKey(ctx)
  // Each index entry keeps its event's memo (a `MemoSlot`): found there, not in the memo's map.
  const events = page.items.map((entry) => toEventJson(entry.record, ctx, LISTED, key, entry))
  // The envelope is assembled from each event's memoized JSON, in the reference's key order.
  const rest = linksAndTotals(links, page)
  const parts: Uint8Array[] = [OPEN_EVENTS]
  const digests: string[] = []
  for (const event of events) {
    if (digests.length === 0) parts.push(event.bytes)
    else if (event.listed) parts.push(event.listed)
    else parts.push(COMMA, event.bytes)
    digests.push(event.digest)
  }
  // Bytes of its own, as the events' are: a kept answer then holds every part as it is.
  parts.push(ownUtf8(`],${rest.slice(1)}`))
  // The links and totals as they are (a digest never holds the `{` they begin with): one hash for the answer.
  digests.push(rest)
  return {
    json: parts,
    etag: composedTag(digests),
    headers: totals(page.total, page.totalPages),
  }
}

/** `GET /events/{id}`: 404 for nothing, 400 for an id of another kind. */
function byId(ctx: RequestContext, input: RouteInput): ApiResult | Promise<ApiResult> {
  const id = input.params.id as number
  const record = ctx.store.get('events', id)
  if (!record && ctx.store.kindOfId('post', id)) throw apiError('rest-invalid-event-id')
  // With fallback off, an event without a file in the asked language does not exist there.
  if (!record || !ctx.store.langOf(record, ctx.lang)) throw apiError('rest-event-not-found', [String(id)])
  return readable(record, ctx, input)
}

function bySlug(ctx: RequestContext, input: RouteInput): ApiResult | Promise<ApiResult> {
  return readable(findBySlug(ctx, 'events', input.params.slug as string)!, ctx, input)
}

/** The reference's access checks for one event, then the event with its JSON-LD. */
function readable(record: ContentRecord, ctx: RequestContext, input: RouteInput): ApiResult | Promise<ApiResult> {
  const { owner, status } = ownership(record)
  if (status === 'trash') throw apiError('event-no-longer-available')
  if (!mayRead(ctx.reader, status, owner)) throw apiError('event-not-accessible')
  let view = ctx
  if (record.source.data.password && input.query.context === 'edit' && canChangePost(ctx.caller, owner, status)) {
    // `context=edit` by someone who may edit the event opens it without the password, as in the reference.
    view = { ...view, password: String(record.source.data.password) }
  }
  if (isLocked(record.source.data.password, view.password)) throw apiError('event-password-protected')
  if (isTrueWord(input.query.ical)) return eventFeed(ctx, record)
  const event = toEventJson(record, view, { jsonLd: true })
  return { json: event.bytes, etag: `"${event.digest}"` }
}

// Bytes of their own (not slices of a shared slab), so a kept answer holds them as they are.
const OPEN_EVENTS = ownUtf8('{"events":[')
const COMMA = ownUtf8(',')

export const EVENT_ROUTES: RouteDef[] = [
  {
    path: '/events',
    pattern: '/events',
    endpoints: [{ methods: ['GET'], args: EVENT_LIST_ARGS, handler: list }, CREATE_EVENT],
  },
  {
    path: '/events/:id',
    pattern: '/events/(?P<id>\\d+)',
    endpoints: [{ methods: ['GET'], args: EVENT_READ_ARGS, handler: byId }, ...EVENT_ID_WRITES],
  },
  {
    path: '/events/by-slug/:slug',
    pattern: '/events/by-slug/(?P<slug>[^/]+)',
    endpoints: [{ methods: ['GET'], args: EVENT_SLUG_READ_ARGS, handler: bySlug }, ...EVENT_SLUG_WRITES],
  },
]
