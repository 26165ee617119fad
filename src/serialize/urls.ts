import type { Lang } from '../languages.ts'
import { NAMESPACE, type Site, type View } from './context.ts'

/** The namespace root for links in a response: keeps the request's language prefix (CONTRACT "Links"). */
export function restRoot(view: View): string {
  const prefix = view.prefix ? `/${view.prefix}` : ''
  return `${view.site.url}${prefix}${view.site.apiRoot}/${NAMESPACE}/`
}

/** A record's canonical API address; names its language unless it is the default (D11). */
export function recordRestUrl(site: Site, path: string, lang: Lang): string {
  const query = lang === site.defaultLang ? '' : `?ml_language=${lang}`
  return `${site.url}${site.apiRoot}/${NAMESPACE}/${path}${query}`
}

/** A public page of the site, with the language segment in front for other languages (DESIGN §3). */
export function publicUrl(site: Site, lang: Lang, path: string): string {
  const segment = lang === site.defaultLang ? '' : `/${lang}`
  return `${site.url}${segment}${path}`
}

/** The address the API root advertises in the `Link` header and `_links.up`. */
export function apiIndexUrl(site: Site): string {
  return `${site.url}${site.apiRoot}/`
}

/** Adds `ml_language` to a link when the request named it (CONTRACT "Links"). */
export function withLanguage(url: string, view: View, encoded = true): string {
  if (!view.langNamed) return url
  const pair = `ml_language=${encoded ? encodeURIComponent(view.lang) : view.lang}`
  return url + (url.includes('?') ? '&' : '?') + pair
}
