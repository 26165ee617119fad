import type { Lang } from '../languages.ts'

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
