import { H3, type H3Event, type HTTPError } from 'h3'
import type { Caller } from './auth/roles.ts'
import type { UserDirectory } from './auth/users.ts'
import type { Store } from './content/store.ts'
import { ApiError, apiError } from './errors.ts'
import { readParams } from './http/body.ts'
import { applyGlobalParams, hasGlobalParams } from './http/global-params.ts'
import { serveMedia } from './http/media.ts'
import { methodOf, normalizePath, requestState, type RequestState } from './http/request.ts'
import { baseHeaders, send } from './http/respond.ts'
import { createIndexes, type Indexes } from './query/indexes.ts'
import { forbidden } from './routes/access.ts'
import { apiIndexRoute } from './routes/api-index.ts'
import { describeRoute, namespaceOf } from './routes/describe.ts'
import { DIAGNOSTICS_ROUTE } from './routes/diagnostics.ts'
import { docRoute } from './routes/doc.ts'
import { EVENT_ROUTES } from './routes/events.ts'
import { ORGANIZER_ROUTES, VENUE_ROUTES } from './routes/linked.ts'
import { siteHome } from './routes/home.ts'
import { rootRoute } from './routes/root.ts'
import { CATEGORY_ROUTES, TAG_ROUTES } from './routes/terms.ts'
import type { Endpoint, RouteDef } from './routes/types.ts'
import { parseParams } from './args/parse.ts'
import type { Site } from './serialize/context.ts'
import { createCaches } from './serialize/caches.ts'
import { prepareRecordMarkdown } from './serialize/markdown.ts'
import { KINDS } from './content/kinds.ts'

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
}

/** The Almanac HTTP app: every route, the error envelope and the headers of the contract. */
export interface App {
  h3: H3
  fetch: (request: Request) => Promise<Response>
  indexes: Indexes
  /** Resolves when the long Markdown of the records loaded at start is rendered (off the event loop). */
  textsReady: Promise<void>
}

const ROUTES: RouteDef[] = [
  ...EVENT_ROUTES,
  ...VENUE_ROUTES,
  ...ORGANIZER_ROUTES,
  ...CATEGORY_ROUTES,
  ...TAG_ROUTES,
  DIAGNOSTICS_ROUTE,
]
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
/**
 * The only query parameter a write takes as an argument: whatever a body may set (title,
 * password…) comes from the body alone. `_method`, `_envelope`, `ml_language`, and `password`
 * to read a protected record are read from the query apart from the arguments.
 */
const WRITE_QUERY_ARGS = ['force']
/** WordPress marks authenticated answers private and already expired (docs/compatibility.md §13). */
const PRIVATE = {
  Expires: 'Wed, 11 Jan 1984 05:00:00 GMT',
  'Cache-Control': 'no-cache, must-revalidate, max-age=0, no-store, private',
}

/** Composes routes, authentication, argument parsing and the error handler into one h3 app (the only place that does). */
export function createApp(options: AppOptions): App {
  const { store, site } = options
  const now = options.now ?? Date.now
  const log = options.log ?? ((message: string) => console.error(message))
  const indexes = createIndexes(store, site.timezone)
  // This app's caches alone: another app in the process, over another tree, keeps its own.
  const caches = createCaches()
  const prepare = (record: Parameters<typeof prepareRecordMarkdown>[1]) =>
    prepareRecordMarkdown(caches.markdown, record)
  store.onChange((before, after) => {
    indexes.update(before, after)
    if (after) void prepare(after)
  })
  const textsReady = Promise.all(KINDS.flatMap((kind) => store.list(kind).map(prepare))).then(() => {})
  // One table: the router registers it and both indexes describe it, so no route can be left out of them.
  const routes: RouteDef[] = [apiIndexRoute(() => routes), rootRoute(() => routes), docRoute(() => ROUTES), ...ROUTES]
  const state = (event: H3Event) =>
    requestState(event, {
      store,
      site,
      indexes,
      perPage: options.perPage,
      maxPerPage: options.maxPerPage,
      now: now(),
      caches,
      ...(options.users ? { users: options.users } : {}),
    })

  const app = new H3({
    silent: true,
    onRequest: (event) => normalizePath(event, site.apiRoot),
    onError: (error, event) => errorResponse(error, event, site, log),
  })
  for (const route of routes) {
    const path = routePath(site.apiRoot, route)
    for (const method of route.endpoints.flatMap((endpoint) => endpoint.methods)) {
      app.on(method as 'GET', path, (event) => dispatch(event, route))
    }
    app.on('OPTIONS', path, async (event) => {
      const current = await state(event)
      const description = describeRoute(route, current.paramContext, current.view)
      return send(event, JSON.stringify(description), responseInit(route, current.caller, 200))
    })
  }
  app.get('/media/**', (event) => serveMedia(event, store))
  app.get('/', (event) => send(event, JSON.stringify(siteHome(site)), { status: 200, site }))

  async function dispatch(event: H3Event, route: RouteDef): Promise<Response> {
    const current = await state(event)
    const method = methodOf(event, current.query)
    const endpoint = route.endpoints.find((candidate) => candidate.methods.includes(method === 'HEAD' ? 'GET' : method))
    if (!endpoint) throw apiError('rest_no_route')
    event.context.allow = allowedMethods(route, current.caller)
    event.context.authenticated = current.caller !== null
    const path = event.context.params ?? {}
    if (path.id !== undefined && !/^\d+$/.test(path.id)) throw apiError('rest_no_route')
    const slug = path.slug === undefined ? undefined : safeDecode(path.slug)
    // docs/compatibility.md §3: who asks is settled before any argument, so a write without the right is 401/403 whatever its body.
    if (endpoint.capability && !endpoint.capability(current.caller)) throw forbidden(current.caller)
    endpoint.authorize?.({
      caller: current.caller,
      view: current.view,
      ...(path.id ? { id: Number(path.id) } : {}),
      ...(slug ? { slug } : {}),
    })
    // No prototype, and keys copied as data: a body's `__proto__` is a parameter named so, nothing more.
    const input: Record<string, unknown> = Object.create(null)
    copyParams(input, WITH_BODY.has(method) ? pick(current.query, WRITE_QUERY_ARGS) : current.query)
    if (WITH_BODY.has(event.req.method)) copyParams(input, await readParams(event))
    if (path.id !== undefined) input.id = path.id
    // The path slug names the record; on an event update, a `slug` in the body is the event's new slug.
    if (slug !== undefined && (endpoint.slugFromPath || method === 'GET' || method === 'HEAD' || method === 'DELETE'))
      input.slug = slug
    const parsed = parseParams(endpoint.args, input, current.paramContext)
    const result = await endpoint.handler({
      method,
      view: current.view,
      caller: current.caller,
      indexes,
      params: parsed.values,
      given: parsed.given,
      scope: {
        store,
        indexes,
        lang: current.view.lang,
        siteZone: site.timezone,
        now: current.view.now,
        reader: current.view.reader ?? 'none',
        geolocDistance: options.geolocDistance ?? 25,
        ...(current.view.password !== undefined ? { password: current.view.password } : {}),
      },
      paramContext: current.paramContext,
      query: current.query,
      input,
      ifMatch: event.req.headers.get('if-match'),
      ...(slug !== undefined ? { pathSlug: slug } : {}),
      ...(path.id !== undefined ? { pathId: Number(path.id) } : {}),
    })
    return respond(event, route, current, result)
  }

  function respond(
    event: H3Event,
    route: RouteDef,
    current: RequestState,
    result: Awaited<ReturnType<Endpoint['handler']>>,
  ) {
    const status = result.status ?? 200
    const init = {
      ...responseInit(route, current.caller, status),
      headers: { ...responseInit(route, current.caller, status).headers, ...result.headers },
    }
    if (!hasGlobalParams(current.query))
      return send(event, result.json ?? JSON.stringify(result.body), init, result.etag)
    const body = result.json === undefined ? result.body : JSON.parse(Buffer.from(result.json).toString())
    const global = applyGlobalParams(body, current.query, status, init.headers)
    const text =
      current.query._pretty !== undefined ? JSON.stringify(global.body, null, 4) : JSON.stringify(global.body)
    return send(event, text, { ...init, status: global.status })
  }

  function responseInit(route: RouteDef, caller: Caller | null, status: number) {
    const headers: Record<string, string> = caller ? { ...PRIVATE } : {}
    return { status, site, allow: allowedMethods(route, caller), headers }
  }

  return { h3: app, fetch: (request) => Promise.resolve(app.fetch(request)), indexes, textsReady }
}

/** Where the router serves a route: under the API root, in its namespace. */
function routePath(apiRoot: string, route: RouteDef): string {
  const namespace = namespaceOf(route)
  return `${apiRoot}${namespace ? `/${namespace}` : ''}${route.path}` || '/'
}

/** Methods of a route the caller may use (WordPress's `Allow` header): public ones, and those their role allows. */
function allowedMethods(route: RouteDef, caller: Caller | null): string[] {
  return route.endpoints
    .filter((endpoint) => !endpoint.capability || endpoint.capability(caller))
    .flatMap((endpoint) => endpoint.methods)
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
  const headers = {
    ...baseHeaders({ site, origin: event.req.headers.get('origin'), ...(allow ? { allow } : {}) }),
    ...api.envelope.headers,
  }
  if (event.context.authenticated) Object.assign(headers, PRIVATE)
  const body = event.req.method === 'HEAD' ? null : JSON.stringify(api.toBody())
  return new Response(body, { status: api.status, headers })
}

function copyParams(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(source))
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}

function pick(source: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((key) => Object.hasOwn(source, key)).map((key) => [key, source[key]]))
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}
