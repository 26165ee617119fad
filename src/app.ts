import { H3, type H3Event, type HTTPError } from 'h3'
import type { Store } from './content/store.ts'
import { ApiError, apiError, invalidParam } from './errors.ts'
import { applyGlobalParams, hasGlobalParams } from './http/global-params.ts'
import { serveMedia } from './http/media.ts'
import { baseHeaders, send } from './http/respond.ts'
import { isLang, LANGUAGES, type Lang } from './languages.ts'
import { createIndexes, type Indexes } from './query/indexes.ts'
import { describeRoute } from './routes/describe.ts'
import { EVENT_ROUTES } from './routes/events.ts'
import { ORGANIZER_ROUTES, VENUE_ROUTES } from './routes/linked.ts'
import { rootRoute } from './routes/root.ts'
import { CATEGORY_ROUTES, TAG_ROUTES } from './routes/terms.ts'
import type { Endpoint, RouteDef } from './routes/types.ts'
import { parseParams, parseQuery } from './schema/params.ts'
import type { ParamContext } from './schema/validators.ts'
import { NAMESPACE, type Site, type View } from './serialize/context.ts'
import { restRoot } from './serialize/urls.ts'

export interface AppOptions {
  store: Store
  site: Site
  perPage: number
  maxPerPage: number
  fallback: boolean
  /** Radius of `geoloc_lat`/`geoloc_lng` event searches, in km. */
  geolocDistance?: number
  /** The clock; tests pin it. */
  now?: () => number
  /** Where unexpected errors are reported (once each). */
  log?: (message: string) => void
}

/** The Almanac HTTP app: every route, the error envelope and the headers of the contract. */
export interface App {
  h3: H3
  fetch: (request: Request) => Promise<Response>
  indexes: Indexes
}

/** Per-request facts found while routing, before any handler runs. */
interface Routing {
  prefix: Lang | null
}

/** Composes routes, argument parsing and the error handler into one h3 app (the only place that does). */
export function createApp(options: AppOptions): App {
  const { store, site } = options
  const now = options.now ?? Date.now
  const log = options.log ?? ((message: string) => console.error(message))
  const indexes = createIndexes(store, site.timezone)
  const routes: RouteDef[] = [
    ...EVENT_ROUTES, ...VENUE_ROUTES, ...ORGANIZER_ROUTES, ...CATEGORY_ROUTES, ...TAG_ROUTES,
  ]
  const all = [rootRoute(() => routes), ...routes]
  const base = `${site.apiRoot}/${NAMESPACE}`

  const app = new H3({
    silent: true,
    onRequest: (event) => normalizePath(event, site.apiRoot),
    onError: (error, event) => errorResponse(error, event, site, log),
  })

  for (const route of all) {
    const allow = allowed(route)
    for (const endpoint of route.endpoints) {
      for (const method of endpoint.methods) {
        app.on(method as 'GET', `${base}${route.path}`, (event) => handle(event, endpoint, allow))
      }
    }
    app.on('OPTIONS', `${base}${route.path}`, (event) => {
      const { view, paramContext } = requestState(event)
      return send(event, JSON.stringify(describeRoute(route, paramContext, restRoot(view))), { status: 200, site, allow: allowed(route) })
    })
  }
  app.get('/media/**', (event) => serveMedia(event, store))

  function handle(event: H3Event, endpoint: Endpoint, allow: string[]): Response {
    event.context.allow = allow
    const params = event.context.params ?? {}
    if (params.id !== undefined && !/^\d+$/.test(params.id)) throw apiError('rest_no_route')
    const state = requestState(event)
    const input: Record<string, unknown> = { ...state.query }
    if (params.id !== undefined) input.id = params.id
    if (params.slug !== undefined) input.slug = safeDecode(params.slug)
    const parsed = parseParams(endpoint.args, input, state.paramContext)
    const result = endpoint.handler({
      method: event.req.method,
      view: state.view,
      indexes,
      params: parsed.values,
      given: parsed.given,
      scope: {
        store, indexes, lang: state.view.lang, siteZone: site.timezone, now: state.view.now, canSeeDrafts: false,
        geolocDistance: options.geolocDistance ?? 25,
      },
      paramContext: state.paramContext,
    })
    const status = result.status ?? 200
    const headers = result.headers ?? {}
    const init = { status, site, allow, headers }
    if (!hasGlobalParams(state.query)) return send(event, result.json ?? JSON.stringify(result.body), init, result.etag)
    const body = result.json === undefined ? result.body : JSON.parse(Buffer.from(result.json).toString())
    const global = applyGlobalParams(body, state.query, status, headers)
    const pretty = state.query._pretty !== undefined
    return send(event, pretty ? JSON.stringify(global.body, null, 4) : JSON.stringify(global.body), { ...init, status: global.status })
  }

  function requestState(event: H3Event): { view: View; paramContext: ParamContext; query: Record<string, unknown> } {
    const query = parseQuery(event.url.searchParams)
    const routing = (event.context.almanac ?? { prefix: null }) as Routing
    const named = query.ml_language
    if (named !== undefined && !isLang(named)) throw invalidParam('ml_language')
    const lang: Lang = isLang(named) ? named : (routing.prefix ?? site.defaultLang)
    const instant = now()
    const view: View = {
      store,
      site,
      lang,
      prefix: routing.prefix,
      langNamed: named !== undefined,
      now: instant,
      termCount: indexes.termCount,
    }
    if (typeof query.password === 'string') view.password = query.password
    const paramContext: ParamContext = {
      store, lang, now: instant, siteZone: site.timezone, perPage: options.perPage, maxPerPage: options.maxPerPage,
      canSeeDrafts: false,
    }
    return { view, paramContext, query }
  }

  return { h3: app, fetch: (request) => Promise.resolve(app.fetch(request)), indexes }
}

/** Methods of a route the caller may use (§1.7 `Allow`); anonymous callers may read only. */
function allowed(route: RouteDef): string[] {
  return route.endpoints.filter((endpoint) => endpoint.methods.includes('GET')).flatMap((endpoint) => endpoint.methods)
}

/**
 * Routes are matched case-insensitively, with trailing slashes ignored, and may sit behind a
 * language segment (`/ms/wp-json/…`). Slugs keep their case; everything else is lower-cased.
 */
function normalizePath(event: H3Event, apiRoot: string): void {
  let path = event.url.pathname
  let prefix: Lang | null = null
  const lower = path.toLowerCase()
  for (const lang of LANGUAGES) {
    if (lower.startsWith(`/${lang}${apiRoot}/`) || lower === `/${lang}${apiRoot}`) {
      prefix = lang
      path = path.slice(lang.length + 1)
      break
    }
  }
  if (path.length > 1) path = path.replace(/\/+$/, '')
  if (path.toLowerCase().startsWith(`${apiRoot}/`)) {
    const slugAt = path.toLowerCase().indexOf('/by-slug/')
    path = slugAt < 0 ? path.toLowerCase() : path.slice(0, slugAt).toLowerCase() + path.slice(slugAt)
  }
  event.url.pathname = path
  event.context.almanac = { prefix } satisfies Routing
}

/** Every failure becomes the WordPress envelope; unexpected ones are logged once and hidden. */
function errorResponse(error: HTTPError, event: H3Event, site: Site, log: (message: string) => void): Response {
  let api: ApiError
  const cause = error.cause
  if (error instanceof ApiError) api = error
  else if (cause instanceof ApiError) api = cause
  else if (error.status === 404 && !error.unhandled) api = apiError('rest_no_route')
  else if (error.status === 400 && !error.unhandled) api = apiError('rest_invalid_url')
  else {
    log(`${event.req.method} ${event.url.pathname}: ${(cause as Error)?.stack ?? error.stack ?? error.message}`)
    api = apiError('internal_server_error')
  }
  const allow = event.context.allow as string[] | undefined
  const headers = baseHeaders({ site, origin: event.req.headers.get('origin'), ...(allow ? { allow } : {}) })
  const body = event.req.method === 'HEAD' ? null : JSON.stringify(api.toBody())
  return new Response(body, { status: api.status, headers })
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}

