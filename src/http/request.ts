import type { H3Event } from 'h3'
import { LANGUAGES, type Lang } from '../languages.ts'
import { trimEndOf } from '../text.ts'

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
  event.url.pathname = path
  event.context.almanac = { prefix } satisfies Routing
}

/** The method a POST stands for, from `?_method=` or `X-HTTP-Method-Override`, as WordPress reads it. */
export function methodOf(event: H3Event, query: Record<string, unknown>): string {
  const method = event.req.method
  if (method !== 'POST') return method
  const override = query._method ?? event.req.headers.get('x-http-method-override')
  return typeof override === 'string' && /^(PUT|PATCH|DELETE)$/i.test(override) ? override.toUpperCase() : method
}
