import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { H3Event } from 'h3'
import type { Store } from '../content/store.ts'
import { apiError } from '../errors.ts'

/** Serves a file of `content/media/`; only files the media library knows, so no path can escape it. */
export async function serveMedia(event: H3Event, store: Store): Promise<Response> {
  let name: string
  try {
    name = decodeURIComponent(event.url.pathname.slice('/media/'.length))
  } catch {
    throw apiError('rest_no_route')
  }
  const media = store.media.byPath(name)
  if (!media) throw apiError('rest_no_route')
  const bytes = await readFile(join(store.dir, 'media', media.file))
  return new Response(event.req.method === 'HEAD' ? null : bytes, {
    headers: { 'Content-Type': media.mime, 'Content-Length': String(bytes.length), 'Cache-Control': 'public, max-age=3600' },
  })
}
