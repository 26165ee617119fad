import { getRequestIP, type H3Event } from 'h3'
import type { Caller } from '../auth/roles.ts'
import { canEditOthers, canEditPosts } from '../auth/roles.ts'
import type { UserDirectory } from '../auth/users.ts'
import type { Store } from '../content/store.ts'
import { apiError, invalidParam } from '../errors.ts'
import { isLang, LANGUAGES, type Lang } from '../languages.ts'
import type { Indexes } from '../query/indexes.ts'
import { parseQuery } from '../args/parse.ts'
import type { ParamContext } from '../args/validators.ts'
import type { Caches } from '../serialize/caches.ts'
import type { Reader, Site, View } from '../serialize/context.ts'
import { trimEndOf } from '../text.ts'

/** Per-request facts found while routing, before any handler runs. */
export interface Routing {
  prefix: Lang | null
}

/** Everything about a request that handlers build on. */
export interface RequestState {
  view: View
  caller: Caller | null
  paramContext: ParamContext
  query: Record<string, unknown>
}

export interface StateOptions {
  store: Store
  site: Site
  indexes: Indexes
  users?: UserDirectory
  perPage: number
  maxPerPage: number
  now: number
  caches: Caches
}

/** Reads the language, the caller (HTTP Basic, checked off the event loop) and the query of a request. */
export async function requestState(event: H3Event, options: StateOptions): Promise<RequestState> {
  const { store, site, indexes } = options
  const query = parseQuery(event.url.searchParams)
  const routing = (event.context.almanac ?? { prefix: null }) as Routing
  const named = query.ml_language
  if (named !== undefined && !isLang(named)) throw invalidParam('ml_language')
  const lang: Lang = isLang(named) ? named : (routing.prefix ?? site.defaultLang)
  const header = event.req.headers.get('authorization')
  // The socket's address: failures are limited per client (requests made in-process have none).
  const caller = options.users
    ? await options.users.authenticate(header, getRequestIP(event))
    : header === null
      ? null
      : failAuth()
  const view: View = {
    store,
    site,
    lang,
    prefix: routing.prefix,
    langNamed: named !== undefined,
    now: options.now,
    termCount: indexes.termCount,
    reader: readerOf(caller),
    caches: options.caches,
  }
  if (typeof query.password === 'string') view.password = query.password
  const paramContext: ParamContext = {
    store,
    lang,
    now: options.now,
    siteZone: site.timezone,
    perPage: options.perPage,
    maxPerPage: options.maxPerPage,
    canSeeDrafts: canEditPosts(caller),
    userExists: (id) => options.users?.list().some((user) => user.id === id) ?? false,
  }
  return { view, caller, paramContext, query }
}

/** Whose unpublished records a caller reads (WordPress's `read_post`, docs/compatibility.md §20): editors everyone's, contributors and authors their own. */
export function readerOf(caller: Caller | null): Reader {
  if (canEditOthers(caller)) return 'all'
  return caller && canEditPosts(caller) ? caller.id : 'none'
}

function failAuth(): never {
  throw apiError('incorrect_password')
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
