import { isUrlWithHost } from '../content/schema/web-address.ts'
import type { View } from './view.ts'
import { link } from './urls.ts'

/** The reference's image object: what is known about the file, falsy values left out (docs/compatibility.md §15). */
export type ImageResponse = Record<string, string | number>

/** Builds `image` from a stored value: a media id, a path under `content/media/`, or an absolute URL. */
export function toImage(value: unknown, view: View): ImageResponse | false {
  if (value === undefined || value === null || value === '') return false
  const text = String(value)
  if (/^https?:\/\//i.test(text)) {
    // A content file may hold any text (a write is refused one that is not a web address): one no URL reads is no image.
    if (!isUrlWithHost(text)) return false
    const extension = /\.([a-z0-9]+)(?:[?#]|$)/i.exec(new URL(text).pathname)?.[1]?.toLowerCase()
    return extension ? { url: text, extension } : { url: text }
  }
  const media = /^\d+$/.test(text)
    ? view.store.media.byId(Number(text))
    : view.store.media.byPath(text.replace(/^(content\/)?media\//, ''))
  if (!media) return false
  const image: ImageResponse = { url: mediaUrl(view, media.file) }
  if (media.id) image.id = media.id
  image.extension = media.extension
  if (media.width) image.width = media.width
  if (media.height) image.height = media.height
  if (media.filesize) image.filesize = media.filesize
  return image
}

/** Where the server (and the static build) serve a file of `content/media/`. */
export function mediaUrl(view: View, file: string): string {
  return link(view.site, `${view.site.url}/media/${file.split('/').map(encodeURIComponent).join('/')}`)
}
