import type { H3Event } from 'h3'
import { FastResponse, type ServerRequest } from 'srvx'
import type { Caller } from '../auth/roles.ts'
import type { Site } from '../context/site.ts'
import { digest } from '../serialize/memo.ts'
import { apiIndexUrl } from '../serialize/urls.ts'
import { type Body, byteLengthOf, joined, PartsPipe } from './body-parts.ts'
import { applyGlobalParams, hasGlobalParams } from './global-params.ts'
import { allowedMethods, type ApiResult, type RouteDef } from './route.ts'

/** WordPress marks authenticated answers private and already expired (docs/compatibility.md §13). */
export const PRIVATE = {
  Expires: 'Wed, 11 Jan 1984 05:00:00 GMT',
  'Cache-Control': 'no-cache, must-revalidate, max-age=0, no-store, private',
}

/** Everything that shapes a response besides its body. */
export interface SendInit {
  status: number
  site: Site
  /** Methods of the matched route the caller may use (WordPress's `Allow` header). */
  allow?: readonly string[]
  headers?: Record<string, string>
}

/** The headers WordPress sends on every REST response, with the exposed headers of docs/compatibility.md §12. */
export function baseHeaders(init: {
  site: Site
  origin: string | null
  allow?: readonly string[]
}): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json; charset=UTF-8',
    'X-Robots-Tag': 'noindex',
    Link: `<${apiIndexUrl(init.site)}>; rel="https://api.w.org/"`,
    'X-Content-Type-Options': 'nosniff',
    'Access-Control-Expose-Headers': 'X-WP-Total, X-WP-TotalPages, Link, X-TEC-Total, X-TEC-TotalPages, ETag',
    'Access-Control-Allow-Headers':
      'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type, If-Match, If-None-Match',
  }
  if (init.allow) headers.Allow = init.allow.join(', ')
  if (init.origin) {
    headers['Access-Control-Allow-Origin'] = init.origin
    headers['Access-Control-Allow-Methods'] = 'OPTIONS, GET, POST, PUT, PATCH, DELETE'
    headers['Access-Control-Allow-Credentials'] = 'true'
  }
  headers.Vary = 'Origin'
  return headers
}

/** A response before it meets the request's conditions: its status, every header (ETag included) and its body. */
export interface Outgoing {
  status: number
  headers: Record<string, string>
  body: Body
  /** The strong ETag of a GET or HEAD 200. */
  etag?: string
}

/**
 * Answers with a JSON text (UTF-8 as is, slashes unescaped: docs/compatibility.md §9) as srvx's FastResponse
 * with a plain
 * header object: h3 hands it to Node as it is, with a Content-Length and no stream or Headers
 * normalization. GET and HEAD answers get a strong ETag and honour If-None-Match with 304 (docs/compatibility.md §13);
 * `etag` may be given when it is already known, so a large body need not be hashed again.
 */
export function send(event: H3Event, text: Body, init: SendInit, etag?: string): Response {
  return deliver(event, outgoing(event, text, init, etag))
}

/** The status, headers and body `send` answers with, before If-None-Match and HEAD are applied. */
export function outgoing(event: H3Event, text: Body, init: SendInit, etag?: string): Outgoing {
  const origin = event.req.headers.get('origin')
  // Assigned, not spread: an object made by a spread and then given keys it lacked gets a shape of its own in V8 11
  // (Node 20), and every answer's headers were then read through slow lookups (about 8 µs an answer in-process).
  const headers = Object.assign(baseHeaders({ site: init.site, origin, allow: init.allow }), init.headers)
  const method = event.req.method
  if ((method === 'GET' || method === 'HEAD') && init.status === 200) {
    const tag = etag ?? entityTag(text)
    headers.ETag = tag
    headers['Cache-Control'] ??= 'no-cache'
    return { status: init.status, headers, body: text, etag: tag }
  }
  return { status: init.status, headers, body: text }
}

/** The response to a request: 304 when its If-None-Match names the ETag, no body to a HEAD. */
export function deliver(event: H3Event, out: Outgoing, notModified?: Record<string, string>): Response {
  const ifNoneMatch = out.etag === undefined ? null : event.req.headers.get('if-none-match')
  if (ifNoneMatch && etagMatches(ifNoneMatch, out.etag!)) {
    let headers = notModified
    if (!headers) {
      headers = { ...out.headers }
      delete headers['Content-Type']
    }
    return new FastResponse(null, { status: 304, headers })
  }
  // A HEAD tells the length a GET would send (RFC 9110, section 9.3.2): a client sizes an answer without fetching it.
  if (event.req.method === 'HEAD') {
    const headers = Object.assign({}, out.headers)
    const body = out.body
    headers['Content-Length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : byteLengthOf(body))
    return new FastResponse(null, { status: out.status, headers })
  }
  const body = out.body
  if (typeof body === 'string' || body instanceof Uint8Array || !nodeResponseOf(event))
    return new FastResponse(joined(body) as BodyInit, { status: out.status, headers: out.headers })
  // Where srvx writes bytes it measured, it adds `content-length` after every other header: so here.
  const headers = Object.assign({}, out.headers)
  headers['Content-Length'] = String(byteLengthOf(body))
  return new FastResponse(new PartsPipe(body) as unknown as BodyInit, { status: out.status, headers })
}

/** Whether Node handed this request to h3 (`app.node`), so the response is written to a Node response. */
function nodeResponseOf(event: H3Event): boolean {
  return (event.req as ServerRequest).runtime?.node?.res !== undefined
}

/**
 * A handler's result as the response: its status and headers, the global parameters (`_envelope`, `_pretty`,
 * `_fields`) applied.
 */
export function answer(
  event: H3Event,
  route: RouteDef,
  who: { site: Site; caller: Caller | null },
  query: Record<string, unknown>,
  result: ApiResult,
): Outgoing {
  const status = result.status ?? 200
  const init = responseInit(route, who, status)
  Object.assign(init.headers, result.headers)
  if (result.contentType !== undefined) init.headers['Content-Type'] = result.contentType
  if (result.contentType !== undefined || !hasGlobalParams(query))
    return outgoing(event, result.json ?? JSON.stringify(result.body), init, result.etag)
  const body = result.json === undefined ? result.body : JSON.parse(Buffer.from(joined(result.json)).toString())
  const global = applyGlobalParams(body, query, status, init.headers)
  const text = query._pretty !== undefined ? JSON.stringify(global.body, null, 4) : JSON.stringify(global.body)
  return outgoing(event, text, { ...init, status: global.status })
}

/** The status and headers of an answer to a route: `Allow` for this caller, and private when they signed in. */
export function responseInit(
  route: RouteDef,
  who: { site: Site; caller: Caller | null },
  status: number,
): SendInit & { headers: Record<string, string> } {
  const headers: Record<string, string> = who.caller ? { ...PRIVATE } : {}
  return { status, site: who.site, allow: allowedMethods(route, who.caller), headers }
}

/** A strong ETag of a body. */
export function entityTag(text: Body): string {
  return `"${digest(joined(text))}"`
}

/** A strong ETag of a body made of parts whose digests are known: a digest of those digests. */
export function composedTag(parts: string[]): string {
  return `"${digest(parts.join('|'))}"`
}

/** Whether an If-None-Match header names `etag` (or is `*`); weak tags compare by their opaque part. */
export function etagMatches(header: string, etag: string): boolean {
  if (header.trim() === '*') return true
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)
}

/** `X-TEC-Total` and `X-TEC-TotalPages`, as decimal strings. */
export function totals(total: number, totalPages: number): Record<string, string> {
  return { 'X-TEC-Total': String(total), 'X-TEC-TotalPages': String(totalPages) }
}
