import type { Site } from '../serialize/context.ts'
import type { Layout } from './layout.ts'

const PREFIXES = ['', '/zh-hans', '/ms', '/ta']

/**
 * `_headers` and `_redirects` for hosts that read them (Netlify, Cloudflare Pages): JSON content
 * type, CORS, short caching, and the one rewrite a static API needs: `/path` is `/path.json`.
 */
export function hostFiles(site: Site): Record<string, string> {
  const api = `${site.apiRoot}/calendar/events/v1`
  const headers = [
    '/*',
    '  Access-Control-Allow-Origin: *',
    '  Access-Control-Expose-Headers: ETag, Link',
    '  X-Content-Type-Options: nosniff',
    ...PREFIXES.flatMap((prefix) => [`${prefix}${api}/*`, '  Content-Type: application/json; charset=UTF-8', '  Cache-Control: public, max-age=300, must-revalidate']),
    '/media/*',
    '  Cache-Control: public, max-age=86400',
  ]
  const redirects = PREFIXES.flatMap((prefix) => [`${prefix}${api}  ${prefix}${api}.json  200`, `${prefix}${api}/*  ${prefix}${api}/:splat.json  200`])
  return { _headers: `${headers.join('\n')}\n`, _redirects: `${redirects.join('\n')}\n` }
}
