import { join } from 'node:path'
import { readMediaFile } from '../content/store/media.ts'
import type { Store } from '../content/store.ts'
import { NAMESPACE } from '../namespace.ts'
import { MEDIA_HEADERS } from '../http/media.ts'
import type { Site } from '../context/site.ts'

const PREFIXES = ['', '/zh-hans', '/ms', '/ta']

/**
 * `_headers` and `_redirects` for hosts that read them (Netlify, Cloudflare Pages): JSON content
 * type (and the feeds' `text/calendar`), CORS, short caching, the `Link` header that leads WordPress clients to the API index, and
 * the one rewrite a static API needs: `/path` is `/path.json`.
 */
export function hostFiles(site: Site, publicUrl: string): Record<string, string> {
  const root = site.apiRoot
  const api = `${root}/${NAMESPACE}`
  const json = [
    '  Content-Type: application/json; charset=UTF-8',
    '  Cache-Control: public, max-age=300, must-revalidate',
  ]
  const calendar = [
    '  Content-Type: text/calendar; charset=utf-8',
    '  Cache-Control: public, max-age=300, must-revalidate',
  ]
  const headers = [
    '/*',
    '  Access-Control-Allow-Origin: *',
    '  Access-Control-Expose-Headers: ETag, Link',
    '  X-Content-Type-Options: nosniff',
    `  Link: <${publicUrl}${root}/>; rel="https://api.w.org/"`,
    ...PREFIXES.flatMap((prefix) =>
      [`${prefix}${root}`, `${prefix}${root}/`, `${prefix}${api}/*`].flatMap((path) => [path, ...json]),
    ),
    // Feeds, after the API's JSON rule: Netlify serves the later rule's Content-Type (docs/feeds.md).
    ...PREFIXES.flatMap((prefix) =>
      [`${prefix}${api}/events.ics`, `${prefix}${api}/:kind/:id/events.ics`].flatMap((path) => [path, ...calendar]),
    ),
    '/media/*',
    '  Cache-Control: public, max-age=86400',
    // Every file already has nosniff (`/*`); a media file, an SVG above all, may not run anything either.
    `  Content-Security-Policy: ${MEDIA_HEADERS['Content-Security-Policy']}`,
  ]
  const redirects = PREFIXES.flatMap((prefix) => [
    `${prefix}${root}  ${prefix}${root}.json  200`,
    `${prefix}${root}/  ${prefix}${root}.json  200`,
    `${prefix}${api}  ${prefix}${api}.json  200`,
    `${prefix}${api}/*  ${prefix}${api}/:splat.json  200`,
  ])
  return { _headers: `${headers.join('\n')}\n`, _redirects: `${redirects.join('\n')}\n` }
}

/** The files of a build that are not API answers: the media, then the host files (one at a time: media can be large). */
export async function* extraFiles(store: Store, site: Site, publicUrl: string): AsyncGenerator<[string, Buffer]> {
  for (const media of store.media.all()) {
    // Only regular files inside media/: a file swapped for a link since loading is left out.
    const bytes = await readMediaFile(join(store.dir, 'media'), media.file)
    if (bytes) yield [`media/${media.file}`, bytes]
  }
  for (const [file, content] of Object.entries(hostFiles(site, publicUrl))) yield [file, Buffer.from(content)]
}
