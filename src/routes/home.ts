import type { Site } from '../context/site.ts'
import { apiIndexUrl } from '../serialize/urls.ts'

/**
 * What the site's address (`/`) answers: Almanac has no pages, so a short JSON that names the site
 * and leads to the API index, with the `Link` header every answer carries. WordPress clients find
 * the API the documented way, from the `Link` header of the site's address.
 */
export function siteHome(site: Site) {
  return {
    name: site.name ?? 'Almanac',
    description: site.description ?? '',
    url: site.url,
    _links: { 'https://api.w.org/': [{ href: apiIndexUrl(site) }] },
  }
}
