import type { Body } from './body-parts.ts'
import type { Caller } from '../auth/roles.ts'
import type { ArgSet } from '../args/types.ts'
import type { RequestContext } from '../context/request.ts'

/** What a handler is given besides the context: its arguments, and what the path, the query and the headers said. */
export interface RouteInput {
  method: string
  /** Arguments after the reference's pipeline (defaults applied, types coerced). */
  params: Record<string, unknown>
  /** The arguments the caller actually sent. */
  given: Set<string>
  /** The raw query, for what WordPress reads without declaring it (`context`, `password`). */
  query: Record<string, unknown>
  /** Query, body and path together, before argument parsing: undeclared keys included. */
  raw: Record<string, unknown>
  /** The `If-Match` header of a write (docs/compatibility.md §14). */
  ifMatch: string | null
  /** The record the path names: its id, or its slug (by-slug routes). */
  pathId?: number
  pathSlug?: string
  /**
   * The caller's rights checked again as they are now: the endpoint's capability and its right on the record the
   * path names, the caller still in the users file with the same role. A write runs it first in its transaction
   * (`inTransaction`): checked only before the body arrived, a write held open on an id nobody had yet landed on
   * the record created there meanwhile, whoever made it.
   */
  recheck: () => Promise<void>
}

/** What a handler answers: a body (or its JSON, already serialized), a status and extra headers. */
export interface ApiResult {
  status?: number
  body?: unknown
  json?: Body
  /** The ETag of `json`, when the handler knows it without hashing the whole text again. */
  etag?: string
  /** `json` is not JSON but this type (a feed's `text/calendar`): the global parameters do not apply to it. */
  contentType?: string
  headers?: Record<string, string>
}

/** The record the path of a request names, by id or by slug, when it names one. */
export interface PathTarget {
  id?: number
  slug?: string
}

/** One method group of a route, with its arguments, its access rules and its handler. */
export interface Endpoint {
  methods: string[]
  args: ArgSet
  /** The generic right (`edit_posts`, `manage_terms`…); also decides the `Allow` header. Absent: public. */
  capability?: (caller: Caller | null) => boolean
  /** The right on the very record the path names (docs/compatibility.md §6); throws 403 `rest_forbidden`. */
  authorize?: (ctx: RequestContext, target: PathTarget) => void
  handler: (ctx: RequestContext, input: RouteInput) => ApiResult | Promise<ApiResult>
  /** On by-slug routes: the path slug is the `slug` argument (checked to exist), not a body's new slug. */
  slugFromPath?: boolean
}

/** A route: its h3 path, the regex key the namespace index shows, and its endpoints. */
export interface RouteDef {
  /** The namespace the route belongs to; absent: Almanac's (`calendar/events/v1`); '' for the API index itself. */
  namespace?: string
  /** Relative to the namespace, h3 syntax: `/events/:id`. */
  path: string
  /** Relative to the namespace, the reference's regex form: `/events/(?P<id>\d+)`. */
  pattern: string
  endpoints: Endpoint[]
}

/** Methods of a route the caller may use (WordPress's `Allow` header): public ones, and those their role allows. */
export function allowedMethods(route: RouteDef, caller: Caller | null): readonly string[] {
  if (caller !== null) return methodsFor(route, caller)
  // An anonymous caller's, asked twice by most requests, once per route.
  let methods = anonymousMethods.get(route)
  if (!methods) anonymousMethods.set(route, (methods = Object.freeze(methodsFor(route, null))))
  return methods
}

const anonymousMethods = new WeakMap<RouteDef, readonly string[]>()

function methodsFor(route: RouteDef, caller: Caller | null): string[] {
  return route.endpoints
    .filter((endpoint) => !endpoint.capability || endpoint.capability(caller))
    .flatMap((endpoint) => endpoint.methods)
}
