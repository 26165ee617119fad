import { type Caller, canEditOthers, canEditPosts } from '../auth/roles.ts'
import type { Store } from '../content/store.ts'
import type { Lang } from '../languages.ts'
import type { Caches } from './caches.ts'
import type { Indexes } from './indexes.ts'
import type { Site } from './site.ts'

/**
 * One request, as every layer sees it: who asks, in which language, on which site, at what time,
 * over which records, and with what limits. The app builds it once per request
 * (`src/http/context.ts`), and the static export asks the app for the same (`App.context`); each
 * layer takes it whole or the `Pick` of it that it reads (`View`, `ParamContext`, `QueryScope`).
 */
export interface RequestContext {
  /** Who asks: the user the request signed in as, or null for an anonymous caller. */
  caller: Caller | null
  /** Whose unpublished records the caller reads (`readerOf(caller)`). */
  reader: Reader
  /** The language asked for (`ml_language`, else the path prefix, else the default). */
  lang: Lang
  /** The language path prefix the request came through, if any (`/ms/wp-json/…`). */
  prefix: Lang | null
  /** Whether the request named `ml_language`, so links carry it on. */
  langNamed: boolean
  /** A password given with `?password=`, which unlocks protected records. */
  password?: string
  site: Site
  /** The request's instant, in ms since the epoch. */
  now: number
  store: Store
  /** The app's indexes over the store (events by date, relations, term counts, search). */
  indexes: Indexes
  /** The app's serializer caches (its own: no other app's answers are found there). */
  caches: Caches
  /** The default and the largest `per_page` of a list. */
  perPage: number
  maxPerPage: number
  /** Radius of a `geoloc_lat`/`geoloc_lng` search, in km. */
  geolocDistance: number
  /** Whether a user id names a user (for `author`); no user exists without a users file. */
  userExists(id: number): boolean
}

/**
 * Whose unpublished posts (drafts, pending, private, future, trash) a caller may read, as WordPress's
 * `read_post` decides: `all` for editors and administrators, a user id for contributors and authors
 * (their own), `none` for subscribers and anonymous callers.
 */
export type Reader = 'none' | 'all' | number

/** Whether the request may read a post of this status and owner. */
export function mayRead(reader: Reader | undefined, status: string, owner: number): boolean {
  return status === 'publish' || reader === 'all' || (typeof reader === 'number' && reader === owner)
}

/**
 * Whose unpublished records a caller reads (WordPress's `read_post`, docs/compatibility.md §20): editors
 * everyone's, contributors and authors their own.
 */
export function readerOf(caller: Caller | null): Reader {
  if (canEditOthers(caller)) return 'all'
  return caller && canEditPosts(caller) ? caller.id : 'none'
}
