import type { Lang } from '../languages.ts'
import { NAMESPACE } from '../namespace.ts'
import type { Site } from '../context/site.ts'
import type { View } from './view.ts'

/** The namespace root for links in a response: keeps the request's language prefix (docs/compatibility.md §1). */
export function restRoot(view: View): string {
  const prefix = view.prefix ? `/${view.prefix}` : ''
  return `${view.site.url}${prefix}${view.site.apiRoot}/${NAMESPACE}/`
}

/** The API index's address for links in a response (`…/wp-json/`), keeping the request's language prefix. */
export function apiBase(view: View): string {
  const prefix = view.prefix ? `/${view.prefix}` : ''
  return `${view.site.url}${prefix}${view.site.apiRoot}/`
}

/** A record's canonical API address; names its language unless it is the default (docs/compatibility.md §1). */
export function recordRestUrl(site: Site, path: string, lang: Lang): string {
  const query = lang === site.defaultLang ? '' : `?ml_language=${lang}`
  return link(site, `${site.url}${site.apiRoot}/${NAMESPACE}/${path}${query}`)
}

/** What a site's responses depend on beyond the request: its address and where its links point. */
export function siteKey(site: Site): string {
  return site.links ? `${site.url} ${site.links.key}` : site.url
}

/** A link into the API or to a media file as responses carry it: live, or mapped by the site (a static build). */
export function link(site: Site, url: string): string {
  return site.links ? site.links.map(url) : url
}

/** The paging links of a list, each through `link`. */
export function listLinks<T extends { rest_url: string; next_rest_url?: string; previous_rest_url?: string }>(
  site: Site,
  links: T,
): T {
  if (!site.links) return links
  const mapped = { ...links, rest_url: link(site, links.rest_url) }
  if (links.next_rest_url) mapped.next_rest_url = link(site, links.next_rest_url)
  if (links.previous_rest_url) mapped.previous_rest_url = link(site, links.previous_rest_url)
  return mapped
}

/** A public page of the site, with the language segment in front for other languages (docs/architecture.md §2). */
export function publicUrl(site: Site, lang: Lang, path: string): string {
  const segment = lang === site.defaultLang ? '' : `/${lang}`
  return `${site.url}${segment}${path}`
}

/** The address the API root advertises in the `Link` header and `_links.up`. */
export function apiIndexUrl(site: Site): string {
  return `${site.url}${site.apiRoot}/`
}

/** The query of a list's links, with `ml_language` when the request named it (docs/compatibility.md §1). */
export function withLang(query: [string, string][], view: Pick<View, 'lang' | 'langNamed'>): [string, string][] {
  return view.langNamed ? [...query, ['ml_language', view.lang]] : query
}
