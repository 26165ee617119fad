import { createHash } from 'node:crypto'
import type { H3Event } from 'h3'
import type { Site } from '../serialize/context.ts'
import { apiIndexUrl } from '../serialize/urls.ts'

/** Everything that shapes a response besides its body. */
export interface SendInit {
  status: number
  site: Site
  /** Methods of the matched route the caller may use (§1.7 `Allow`). */
  allow?: string[]
  headers?: Record<string, string>
}

/** The headers WordPress sends on every REST response (§1.7), with D12's exposed headers. */
export function baseHeaders(init: { site: Site; origin: string | null; allow?: string[] }): Record<string, string> {
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

/**
 * Answers with a JSON text (UTF-8 as is, slashes unescaped: D8). Headers go on the event and the
 * body is returned as a string, h3's fast path: the response gets a Content-Length and no stream.
 * GET and HEAD answers get a strong ETag and honour If-None-Match with 304 (D13).
 */
export function send(event: H3Event, text: string, init: SendInit): string | null {
  const headers = event.res.headers
  const all = { ...baseHeaders({ site: init.site, origin: event.req.headers.get('origin'), ...(init.allow ? { allow: init.allow } : {}) }), ...init.headers }
  for (const name in all) headers.set(name, all[name]!)
  event.res.status = init.status
  const method = event.req.method
  if ((method === 'GET' || method === 'HEAD') && init.status === 200) {
    const etag = entityTag(text)
    headers.set('ETag', etag)
    if (!headers.has('Cache-Control')) headers.set('Cache-Control', 'no-cache')
    const ifNoneMatch = event.req.headers.get('if-none-match')
    if (ifNoneMatch && matches(ifNoneMatch, etag)) {
      headers.delete('Content-Type')
      event.res.status = 304
      return null
    }
  }
  return text
}

/** A strong ETag of a body. */
export function entityTag(text: string): string {
  return `"${createHash('sha1').update(text).digest('base64url')}"`
}

function matches(header: string, etag: string): boolean {
  if (header.trim() === '*') return true
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)
}
