import { createHash } from 'node:crypto'
import type { Site } from '../serialize/context.ts'
import { apiIndexUrl } from '../serialize/urls.ts'

/** Everything that shapes a response besides its body. */
export interface ResponseInit {
  status: number
  method: string
  site: Site
  origin: string | null
  /** Methods of the matched route the caller may use (§1.7 `Allow`). */
  allow?: string[]
  headers?: Record<string, string>
  /** GET and HEAD answers get an ETag and honour If-None-Match (D13). */
  ifNoneMatch?: string | null
  pretty?: boolean
}

/** The headers WordPress sends on every REST response (§1.7), with D12's exposed headers. */
export function baseHeaders(init: Pick<ResponseInit, 'site' | 'origin' | 'allow'>): Record<string, string> {
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

/** Serializes a body as JSON (UTF-8 as is, slashes unescaped: D8) into a Response. */
export function jsonResponse(body: unknown, init: ResponseInit): Response {
  const text = init.pretty ? JSON.stringify(body, null, 4) : JSON.stringify(body)
  const headers = { ...baseHeaders(init), ...init.headers }
  const cacheable = (init.method === 'GET' || init.method === 'HEAD') && init.status === 200
  if (cacheable) {
    const etag = entityTag(text)
    headers.ETag = etag
    headers['Cache-Control'] ??= 'no-cache'
    if (init.ifNoneMatch && matches(init.ifNoneMatch, etag)) {
      delete headers['Content-Type']
      return new Response(null, { status: 304, headers })
    }
  }
  return new Response(init.method === 'HEAD' ? null : text, { status: init.status, headers })
}

/** A strong ETag of a body. */
export function entityTag(text: string): string {
  return `"${createHash('sha1').update(text).digest('base64url')}"`
}

function matches(header: string, etag: string): boolean {
  if (header.trim() === '*') return true
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)
}
