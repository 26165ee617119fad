import type { H3Event } from 'h3'
import { apiError } from '../errors.ts'
import { LANGUAGES, type Lang } from '../languages.ts'
import { trimEndOf } from '../text.ts'
import { readParams } from './body.ts'
import type { Endpoint, PathTarget } from './route.ts'

// What a request asks, read off it before any handler runs: the path (and its language prefix), the
// method a POST stands for, the record the path names, and the input the argument pipeline reads.

/** Per-request facts found while routing, before any handler runs. */
export interface Routing {
  prefix: Lang | null
}

/**
 * Routes are matched case-insensitively, with trailing slashes ignored, and may sit behind a
 * language segment (`/ms/wp-json/…`). Slugs keep their case; everything else is lower-cased.
 */
export function normalizePath(event: H3Event, apiRoot: string): void {
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
  if (path.length > 1) path = trimEndOf(path, '/')
  const api = path.toLowerCase()
  if (api === apiRoot || api.startsWith(`${apiRoot}/`)) {
    const slugAt = path.toLowerCase().indexOf('/by-slug/')
    path = slugAt < 0 ? path.toLowerCase() : path.slice(0, slugAt).toLowerCase() + path.slice(slugAt)
  }
  // Set only when it changed: setting it makes srvx parse the whole URL.
  if (path !== event.url.pathname) event.url.pathname = path
  event.context.almanac = { prefix } satisfies Routing
}

/** The method a POST stands for, from `?_method=` or `X-HTTP-Method-Override`, as WordPress reads it. */
export function methodOf(event: H3Event, query: Record<string, unknown>): string {
  const method = event.req.method
  if (method !== 'POST') return method
  const override = query._method ?? event.req.headers.get('x-http-method-override')
  return typeof override === 'string' && /^(PUT|PATCH|DELETE)$/i.test(override) ? override.toUpperCase() : method
}

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
/**
 * The only query parameter a write takes as an argument: whatever a body may set (title,
 * password…) comes from the body alone. `_method`, `_envelope`, `ml_language`, and `password`
 * to read a protected record are read from the query apart from the arguments.
 */
const WRITE_QUERY_ARGS = ['force']

/** The record the path names: a numeric id (anything else is no route), or a slug, decoded. */
export function pathTarget(event: H3Event): PathTarget {
  const path = event.context.params ?? {}
  if (path.id !== undefined && !/^\d+$/.test(path.id)) throw apiError('rest_no_route')
  return {
    ...(path.id !== undefined ? { id: Number(path.id) } : {}),
    ...(path.slug !== undefined ? { slug: safeDecode(path.slug) } : {}),
  }
}

/** Query, body and path together, as the argument pipeline reads them: undeclared keys included. */
export async function rawInput(
  event: H3Event,
  method: string,
  query: Record<string, unknown>,
  endpoint: Endpoint,
  target: PathTarget,
): Promise<Record<string, unknown>> {
  // No prototype, and keys copied as data: a body's `__proto__` is a parameter named so, nothing more.
  const input: Record<string, unknown> = Object.create(null)
  copyParams(input, WITH_BODY.has(method) ? pick(query, WRITE_QUERY_ARGS) : query)
  if (WITH_BODY.has(event.req.method)) copyParams(input, await readParams(event))
  const id = event.context.params?.id
  if (id !== undefined) input.id = id
  // The path slug names the record; on an event update, a `slug` in the body is the event's new slug.
  const { slug } = target
  if (slug !== undefined && (endpoint.slugFromPath || method === 'GET' || method === 'HEAD' || method === 'DELETE'))
    input.slug = slug
  return input
}

/** Copies own keys as data: `target` has no prototype, so even `__proto__` is an own property like any other. */
function copyParams(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const key of Object.keys(source)) target[key] = source[key]
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
