import type { ContentRecord } from '../content/store.ts'
import type { Indexes } from '../query/indexes.ts'
import type { QueryScope } from '../query/events.ts'
import type { ArgSet } from '../schema/args.ts'
import type { ParamContext } from '../schema/validators.ts'
import type { View } from '../serialize/context.ts'

/** A request after routing and argument parsing, as handlers see it. */
export interface ApiRequest {
  method: string
  view: View
  indexes: Indexes
  /** Arguments after the reference's pipeline (defaults applied, types coerced). */
  params: Record<string, unknown>
  /** The arguments the caller actually sent. */
  given: Set<string>
  scope: QueryScope
  /** What argument defaults and checks were computed from. */
  paramContext: ParamContext
}

/** What a handler answers: a body (or its JSON text, already serialized), a status and extra headers. */
export interface ApiResult {
  status?: number
  body?: unknown
  json?: string | Uint8Array
  /** The ETag of `json`, when the handler knows it without hashing the whole text again. */
  etag?: string
  headers?: Record<string, string>
}

/** One method group of a route, with its arguments and handler. */
export interface Endpoint {
  methods: string[]
  args: ArgSet
  handler: (request: ApiRequest) => ApiResult
}

/** A route: its h3 path, the regex key the namespace index shows, and its endpoints. */
export interface RouteDef {
  /** Relative to the namespace, h3 syntax: `/events/:id`. */
  path: string
  /** Relative to the namespace, the reference's regex form: `/events/(?P<id>\d+)`. */
  pattern: string
  endpoints: Endpoint[]
}

/** A record that may be read in the request's language, or undefined. */
export type Found = ContentRecord | undefined
