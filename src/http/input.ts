import type { H3Event } from 'h3'
import { apiError } from '../errors.ts'
import { readParams } from './body.ts'
import type { Endpoint, PathTarget } from './route.ts'

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
