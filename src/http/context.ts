import { getRequestIP, type H3Event } from 'h3'
import type { Caller } from '../auth/roles.ts'
import type { UserDirectory } from '../auth/users.ts'
import { readerOf, type RequestContext } from '../context/request.ts'
import { apiError, invalidParam } from '../errors.ts'
import { isLang, type Lang } from '../languages.ts'
import { parseQuery } from '../args/parse.ts'
import type { AnswerCache } from './answer-cache.ts'
import type { Routing } from './input.ts'

/**
 * What an app holds for the context of each of its requests: the parts every context shares (its
 * store, site, indexes, caches and limits), its users and its clock.
 */
export type AppState = Pick<
  RequestContext,
  'store' | 'site' | 'indexes' | 'caches' | 'perPage' | 'maxPerPage' | 'geolocDistance'
> & {
  users?: UserDirectory
  now: () => number
  /** The anonymous answers this app keeps (`src/http/answer-reuse.ts`); absent: none is kept. */
  answers?: AnswerCache
}

/**
 * Who asks, and how: what sets one context of an app apart from another. Absent: an anonymous caller, in the
 * default language, now.
 */
export interface Asking {
  caller?: Caller | null
  lang?: Lang
  prefix?: Lang | null
  langNamed?: boolean
  password?: string
  now?: number
}

/** The one context of a request (or of the static export's question) to this app. */
export function createContext(app: AppState, asking: Asking = {}): RequestContext {
  const caller = asking.caller ?? null
  const { store, site, indexes, caches, perPage, maxPerPage, geolocDistance, users } = app
  return {
    caller,
    reader: readerOf(caller),
    lang: asking.lang ?? site.defaultLang,
    prefix: asking.prefix ?? null,
    langNamed: asking.langNamed ?? false,
    // Always a key, undefined when not given: views made from a context (`{ ...ctx, password: undefined }`) then
    // only set keys it has, and keep its shape (V8 gives a spread object extended by a new key a shape of its own,
    // and code reading such views went through slow lookups).
    password: asking.password,
    site,
    now: asking.now ?? app.now(),
    store,
    indexes,
    caches,
    perPage,
    maxPerPage,
    geolocDistance,
    userExists: (id) => users?.list().some((user) => user.id === id) ?? false,
  }
}

/**
 * Reads the language, the caller (HTTP Basic, checked off the event loop) and the query of a request, and
 * builds its context once.
 */
export async function requestContext(
  event: H3Event,
  app: AppState,
): Promise<{ ctx: RequestContext; query: Record<string, unknown> }> {
  const query = parseQuery(event.url.searchParams)
  const routing = (event.context.almanac ?? { prefix: null }) as Routing
  const named = query.ml_language
  if (named !== undefined && !isLang(named)) throw invalidParam('ml_language')
  const header = event.req.headers.get('authorization')
  // The socket's address: failures are limited per client (requests made in-process have none).
  const caller = app.users
    ? await app.users.authenticate(header, getRequestIP(event))
    : header === null
      ? null
      : failAuth()
  const asking: Asking = {
    caller,
    lang: isLang(named) ? named : (routing.prefix ?? app.site.defaultLang),
    prefix: routing.prefix,
    langNamed: named !== undefined,
    ...(typeof query.password === 'string' ? { password: query.password } : {}),
  }
  return { ctx: createContext(app, asking), query }
}

function failAuth(): never {
  throw apiError('incorrect_password')
}
