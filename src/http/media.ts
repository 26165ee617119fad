import { join } from 'node:path'
import type { H3Event } from 'h3'
import { readMediaFile } from '../content/store/media.ts'
import type { Store } from '../content/store.ts'
import { apiError } from '../errors.ts'

/**
 * A media file is shown, never run: an SVG from a stranger's pull request may hold a script, and it is served on the
 * API's own origin. No sniffing, and a policy that lets an image draw its own styles and nothing else.
 */
export const MEDIA_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
} as const

/**
 * Serves a file of `content/media/`: only files the media library knows (so no path can escape it),
 * and only while each is still a regular file inside the folder (never through a symbolic link).
 */
export async function serveMedia(event: H3Event, store: Store): Promise<Response> {
  let name: string
  try {
    name = decodeURIComponent(event.url.pathname.slice('/media/'.length))
  } catch {
    throw apiError('rest_no_route')
  }
  const media = store.media.byPath(name)
  const bytes = media && (await readMediaFile(join(store.dir, 'media'), media.file))
  if (!media || !bytes) throw apiError('rest_no_route')
  return new Response(event.req.method === 'HEAD' ? null : (bytes as Uint8Array<ArrayBuffer>), {
    headers: {
      'Content-Type': media.mime,
      'Content-Length': String(bytes.length),
      'Cache-Control': 'public, max-age=3600',
      ...MEDIA_HEADERS,
    },
  })
}
