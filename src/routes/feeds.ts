import type { ArgSet } from '../args/types.ts'
import { EVENT_LIST_ARGS, EVENT_READ_ARGS } from '../args/events.ts'
import { ORGANIZER_READ_ARGS, VENUE_READ_ARGS } from '../args/linked.ts'
import { CATEGORY_READ_ARGS, TAG_READ_ARGS } from '../args/terms.ts'
import type { Kind } from '../content/model/kinds.ts'
import { isProtected, statusIn } from '../content/model/post-state.ts'
import type { ContentRecord } from '../content/store.ts'
import type { RequestContext } from '../context/request.ts'
import { apiError } from '../errors.ts'
import type { ApiResult, RouteDef, RouteInput } from '../http/route.ts'
import { type FeedRecords, feedRecords } from '../query/feed.ts'
import { feedOf } from '../serialize/feed/calendar.ts'
import type { FeedRequest } from '../serialize/feed/feed-segments.ts'
import { digest } from '../serialize/memo.ts'
import { text } from '../serialize/record.ts'
import { link, restRoot, siteKey } from '../serialize/urls.ts'
import type { View } from '../serialize/view.ts'

// iCalendar feeds (docs/feeds.md): the event list's query as a feed, at `events.ics` and as `?ical=1` on the
// list; one event's feed; and the feed of each category, tag, venue and organizer at `…/{id}/events.ics`,
// paths a static host serves too. A feed shows what an anonymous caller may read, whoever asks.

const CONTENT_TYPE = 'text/calendar; charset=utf-8'

/** A list query as a feed: `GET /events.ics`, or `GET /events?ical=1`. */
export async function listFeed(ctx: RequestContext, input: RouteInput, scope?: Scope): Promise<ApiResult> {
  requireWholePoint(input.params)
  await askGit(ctx)
  if (input.params.search !== undefined) await ctx.indexes.search(ctx.lang).ready
  const values = scope ? { ...input.params, [scope.filter]: [scope.record.id] } : input.params
  const given = scope ? new Set([...input.given, scope.filter]) : input.given
  // The version the records are read at, with no wait between: the feed is kept for it.
  const version = ctx.store.version
  const { records, shown, bounded } = feedRecords(values, given, ctx)
  const name = scope ? `${siteName(ctx)}: ${scope.name}` : siteName(ctx)
  const path = scope ? `${scope.record.kind}/${scope.record.id}/events.ics` : 'events.ics'
  const feed = { name, path: `${path}${sourceQuery(input.query)}`, records, shown, bounded }
  return answer(ctx, feed, heldKey(feed), version)
}

/**
 * A list feed's key among the kept feeds: what its query found (its events and series in order, the occurrences
 * of each series it holds, whether it is bounded), not the words it was asked in. A relative date (`now`,
 * `tomorrow`) means a new instant every second and a new day at the site's midnight, but the same feed until an
 * event enters or leaves it; keyed by the words, such a feed would go stale, and made anew it cost some 80 ms of
 * every poll of a 10,000-event calendar. The query runs for every request either way.
 */
function heldKey({ records, shown, bounded }: FeedRecords): string {
  const held = records.map((record) => {
    const starts = shown.get(record)
    return starts ? `${record.id}:${[...starts].join(' ')}` : String(record.id)
  })
  return digest(`${bounded} ${held.join(',')}`)
}

/** A point needs both halves, as in the list (docs/compatibility.md §19). */
export function requireWholePoint(params: Record<string, unknown>): void {
  const { geoloc_lat: lat, geoloc_lng: lng } = params
  if ((lat === undefined) === (lng === undefined)) return
  const missing = lat === undefined ? 'geoloc_lat' : 'geoloc_lng'
  throw apiError('rest_missing_callback_param', [missing], { params: [missing] })
}

/** The query a feed is refreshed with (SOURCE): the request's, less paging, `ical` and a `password` (a feed reads none). */
function sourceQuery(query: Record<string, unknown>): string {
  const kept = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    if (key === 'page' || key === 'per_page' || key === 'ical' || key === 'password') continue
    for (const one of Array.isArray(value) ? value : [value])
      kept.append(Array.isArray(value) ? `${key}[]` : key, String(one))
  }
  const text = kept.toString()
  return text ? `?${text}` : ''
}

/** One event's feed (a series with its changed occurrences): `GET /events/{id}.ics`, or `?ical=1` on a single read. */
export async function eventFeed(ctx: RequestContext, asked: ContentRecord): Promise<ApiResult> {
  await askGit(ctx)
  // The record as it is now: asking git may have settled it again, and a change landing meanwhile removed it.
  const record = ctx.store.get(asked.kind, asked.id)
  if (!record) throw apiError('rest-event-not-found', [String(asked.id)])
  const shown = record.series?.parent ?? record
  if (statusIn(shown.source.data) !== 'publish' || isProtected(shown.source.data))
    throw apiError('event-not-accessible')
  const name = text(ctx.store.fieldsIn(shown, ctx.lang)?.title)
  return answer(ctx, { name, path: `events/${shown.id}.ics`, records: [shown] }, '', ctx.store.version)
}

/**
 * SEQUENCE counts the commits of a file edited by hand (docs/feeds.md §3): git is asked (once per store version)
 * before a feed reads its records, since a commit it finds settles the records of the files it changed again, as new
 * objects, and what was read of the ones before would show the dates of before.
 */
function askGit(ctx: RequestContext): Promise<void> {
  return ctx.store.askGit()
}

/**
 * The feed, as anonymous callers read it; kept for `version` (the store's when its records were read: a change
 * while git is asked must not keep a feed of the records before it as the one after) and the UTC day and horizon,
 * under its address, name, language, site and `held` (what it holds, for a list feed), since a large one is past
 * what the kept answers take.
 */
async function answer(
  ctx: RequestContext,
  what: Omit<FeedRequest, 'url'>,
  held: string,
  version: number,
): Promise<ApiResult> {
  const { name, path } = what
  const view: View = { ...ctx, reader: 'none', password: undefined }
  const named = ctx.langNamed && !path.includes('ml_language=')
  const url = link(
    ctx.site,
    `${restRoot(ctx)}${path}${named ? `${path.includes('?') ? '&' : '?'}ml_language=${ctx.lang}` : ''}`,
  )
  // The horizon: an empty feed describes the site's zone at it, and it may move without a change of the store.
  const key = `${Math.floor(ctx.now / DAY)} ${ctx.store.horizon()} ${ctx.lang} ${siteKey(ctx.site)} ${url} ${name} ${held}`
  let feed = ctx.caches.feeds.find(version, key)
  if (!feed) {
    feed = await feedOf(view, { ...what, url })
    if (version === ctx.store.version) ctx.caches.feeds.keep(version, key, feed)
  }
  return { json: feed.parts, etag: feed.etag, contentType: CONTENT_TYPE }
}

const DAY = 86_400_000

function siteName(ctx: RequestContext): string {
  return ctx.site.name || ctx.site.host
}

/** What a scoped feed is of: the filter it sets, and the record that names it. */
interface Scope {
  filter: string
  record: ContentRecord
  name: string
}

const SCOPES: { kind: Kind; filter: string; args: ArgSet }[] = [
  { kind: 'categories', filter: 'categories', args: CATEGORY_READ_ARGS },
  { kind: 'tags', filter: 'tags', args: TAG_READ_ARGS },
  { kind: 'venues', filter: 'venue', args: VENUE_READ_ARGS },
  { kind: 'organizers', filter: 'organizer', args: ORGANIZER_READ_ARGS },
]

const NAME_FIELD: Partial<Record<Kind, string>> = { venues: 'venue', organizers: 'organizer' }

/** The feed of one category, tag, venue or organizer: 404 for one an anonymous caller cannot read. */
function scopedFeed(kind: Kind, filter: string) {
  return (ctx: RequestContext, input: RouteInput): Promise<ApiResult> => {
    const record = ctx.store.get(kind, input.params.id as number)!
    const fields = ctx.store.fieldsIn(record, ctx.lang)
    if (!fields || statusIn(record.source.data) !== 'publish' || isProtected(record.source.data))
      throw kind === 'venues' || kind === 'organizers'
        ? apiError(`${NAME_FIELD[kind]!}-not-accessible` as 'venue-not-accessible')
        : apiError('rest_no_route')
    const name = text(fields[NAME_FIELD[kind] ?? 'name'] ?? fields.title)
    return listFeed(ctx, input, { filter, record, name })
  }
}

export const FEED_ROUTES: RouteDef[] = [
  {
    path: '/events.ics',
    pattern: '/events\\.ics',
    endpoints: [{ methods: ['GET'], args: EVENT_LIST_ARGS, handler: (ctx, input) => listFeed(ctx, input) }],
  },
  {
    path: '/events/:id.ics',
    pattern: '/events/(?P<id>\\d+)\\.ics',
    endpoints: [{ methods: ['GET'], args: EVENT_READ_ARGS, handler: singleFeed }],
  },
  ...SCOPES.map(({ kind, filter, args }) => ({
    path: `/${kind}/:id/events.ics`,
    pattern: `/${kind}/(?P<id>\\d+)/events\\.ics`,
    endpoints: [{ methods: ['GET'], args: { ...EVENT_LIST_ARGS, id: args.id! }, handler: scopedFeed(kind, filter) }],
  })),
]

function singleFeed(ctx: RequestContext, input: RouteInput): Promise<ApiResult> {
  const record = ctx.store.get('events', input.params.id as number)
  if (!record || !ctx.store.langOf(record, ctx.lang)) throw apiError('rest-event-not-found', [String(input.params.id)])
  return eventFeed(ctx, record)
}
