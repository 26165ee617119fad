import { H3, toNodeHandler } from 'h3'
import { DEFAULTS } from './config.ts'
import type { UserDirectory } from './auth/users.ts'
import { KINDS } from './content/model/kinds.ts'
import { isSeries } from './content/model/record-types.ts'
import type { ContentRecord, Store } from './content/store.ts'
import type { RequestContext } from './context/request.ts'
import type { Site } from './context/site.ts'
import { type AnswerCache, type AnswerCacheBounds, createAnswerCache } from './http/answer-cache.ts'
import { type AppState, type Asking, createContext } from './http/context.ts'
import { serveRoute } from './http/dispatch.ts'
import { errorResponse } from './http/envelope.ts'
import { frontDoor, type NodeHandler } from './http/front-door.ts'
import { serveMedia } from './http/media.ts'
import { normalizePath } from './http/input.ts'
import { send } from './http/respond.ts'
import type { RouteDef } from './http/route.ts'
import type { Indexes } from './context/indexes.ts'
import { createIndexes } from './query/indexes.ts'
import { describeRoute, namespaceOf } from './routes/describe.ts'
import { siteHome } from './routes/home.ts'
import { routeTable } from './routes/table.ts'
import { createCaches } from './serialize/caches.ts'
import { holdRecordMarkdown, releaseRecordMarkdown } from './serialize/markdown-record.ts'

export interface AppOptions {
  store: Store
  site: Site
  perPage: number
  maxPerPage: number
  fallback: boolean
  /** Who may write; without it every request is anonymous. */
  users?: UserDirectory
  /** Radius of `geoloc_lat`/`geoloc_lng` event searches, in km. */
  geolocDistance?: number
  /** The clock; tests pin it. */
  now?: () => number
  /** Where unexpected errors are reported (once each). */
  log?: (message: string) => void
  /**
   * How much the app may keep of the anonymous answers it gave, to serve them again from their bytes
   * (`ANSWER_CACHE_BOUNDS` unless given; false keeps none). docs/architecture.md §3.
   */
  answerCache?: AnswerCacheBounds | false
  /** What feeds' VEVENTs may hold (FEED_LIMIT_BYTES unless given): a static build keeps every language's. */
  feedCacheBytes?: number
  /**
   * False: long Markdown is rendered where it is first asked for (and kept while its record is served), not on a
   * worker thread. A static build's threads all render pages: a worker rendering every text ahead would be one more.
   */
  markdownThread?: false
}

/** The Almanac HTTP app: every route, the error envelope and the headers of the contract. */
export interface App {
  h3: H3
  fetch: (request: Request) => Promise<Response>
  /** The app as Node's request handler: kept anonymous answers straight from their bytes, the rest through h3. */
  node: NodeHandler
  indexes: Indexes
  /** The context a request asking so would get: the static export asks its questions through it. */
  context(asking?: Asking): RequestContext
  /** The anonymous answers it keeps (absent when it keeps none): how many, their bytes, how often served. */
  answers?: Pick<AnswerCache, 'size' | 'bytes' | 'hits'>
  /** Resolves when the long Markdown of the records loaded at start is rendered (off the event loop). */
  textsReady: Promise<void>
}

/**
 * Composes the store's indexes and caches, the route table, the media and the error envelope into one h3 app
 * (the only place that does).
 */
export function createApp(options: AppOptions): App {
  const { store, site } = options
  const log = options.log ?? ((message: string) => console.error(message))
  const state: AppState = {
    store,
    site,
    indexes: createIndexes(store, site.timezone),
    // This app's caches alone: another app in the process, over another tree, keeps its own.
    caches: createCaches(options.feedCacheBytes, options.markdownThread !== false),
    perPage: options.perPage,
    maxPerPage: options.maxPerPage,
    geolocDistance: options.geolocDistance ?? DEFAULTS.geoloc_distance,
    ...(options.users ? { users: options.users } : {}),
    now: options.now ?? Date.now,
    ...(options.answerCache === false ? {} : { answers: createAnswerCache(options.answerCache) }),
  }
  // The long texts of every record served are held, rendered, for as long as it is (docs/architecture.md §9).
  const { markdown } = state.caches
  store.onChange((before, after) => {
    state.indexes.update(before, after)
    // The new record first: a text it keeps (an unchanged description) never drops to no holder.
    if (after) void holdRecordMarkdown(markdown, after)
    if (before) releaseRecordMarkdown(markdown, before)
  })
  const preparing: Promise<void>[] = []
  const hold = (record: ContentRecord) => {
    const held = holdRecordMarkdown(markdown, record)
    if (held) preparing.push(held)
  }
  for (const kind of KINDS)
    for (const record of store.list(kind)) {
      hold(record)
      // Occurrences are told as they change, as any record is: those served now are held too.
      if (isSeries(record)) for (const occurrence of store.occurrencesOf(record)) hold(occurrence)
    }
  const textsReady = Promise.all(preparing).then(() => {})
  const h3 = new H3({
    silent: true,
    onRequest: (event) => normalizePath(event, site.apiRoot),
    onError: (error, event) => errorResponse(error, event, site, log),
  })
  for (const route of routeTable())
    serveRoute(h3, routePath(site.apiRoot, route), route, state, (ctx) => describeRoute(route, ctx))
  h3.get('/media/**', (event) => serveMedia(event, store))
  h3.get('/', (event) => send(event, JSON.stringify(siteHome(site)), { status: 200, site }))
  const fetch = (request: Request) => Promise.resolve(h3.fetch(request))
  return {
    h3,
    fetch,
    node: frontDoor(state, toNodeHandler(h3)),
    indexes: state.indexes,
    context: (asking) => createContext(state, asking),
    textsReady,
    ...(state.answers ? { answers: state.answers } : {}),
  }
}

/** Where the router serves a route: under the API root, in its namespace. */
function routePath(apiRoot: string, route: RouteDef): string {
  const namespace = namespaceOf(route)
  return `${apiRoot}${namespace ? `/${namespace}` : ''}${route.path}` || '/'
}
