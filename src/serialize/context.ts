import type { Lang } from '../languages.ts'
import type { Store } from '../content/store.ts'
import type { Caches } from './caches.ts'

/** The API namespace, kept in `src/namespace.ts` so that the argument tables below serialize can name it. */
export { NAMESPACE } from '../namespace.ts'

/** Site-wide facts every response is built from. */
export interface Site {
  /** Public base URL, no trailing slash, e.g. `https://events.example.org`. */
  url: string
  /** The site's name and tagline, as the API index (`/wp-json/`) shows them. */
  name?: string
  description?: string
  /** Host name for `global_id` (no scheme, no port), as the reference emits it. */
  host: string
  apiRoot: string
  timezone: string
  defaultLang: Lang
  currency: string
  currencySymbol: string
  currencyPosition: 'prefix' | 'postfix'
  /**
   * Where links into the API and to media point, when not at `url`: a static build maps each to its
   * file. `key` tells JSON memoized with these links apart from the live server's.
   */
  links?: { key: string; map(url: string): string }
}

/** One request as the serializers see it: which language, how it was asked for, and what time it is. */
export interface View {
  store: Store
  site: Site
  /** The language asked for (`ml_language`, else the path prefix, else the default). */
  lang: Lang
  /** The language path prefix the request came through, if any (`/ms/wp-json/…`). */
  prefix: Lang | null
  /** Whether the request named `ml_language`, so links carry it on. */
  langNamed: boolean
  /** The request's instant, in ms since the epoch. */
  now: number
  /** A password given with `?password=`, which unlocks protected records. */
  password?: string
  /** Published events assigned to a term, from the indexes. */
  termCount(termId: number): number
  /** Whose unpublished records this request may read; absent: nobody's. */
  reader?: Reader
  /** The app's serializer caches (its own: no other app's answers are found there). */
  caches: Caches
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
