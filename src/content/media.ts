import { readdir, stat, readFile } from 'node:fs/promises'
import { join, extname } from 'node:path'
import { imageSize } from 'image-size'

/** One file under `content/media/`, with what can be read from it. */
export interface MediaFile {
  /** Path relative to `content/media/`, with forward slashes. */
  file: string
  /** The id from a `<id>-name.ext` file name, when there is one. */
  id: number | null
  extension: string
  mime: string
  filesize: number
  width?: number
  height?: number
}

const MIME: Record<string, string> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp',
  svg: 'image/svg+xml', avif: 'image/avif',
}

/** The media library: every image under `content/media/`, by id and by path. */
export interface MediaLibrary {
  byId(id: number): MediaFile | undefined
  byPath(file: string): MediaFile | undefined
  all(): MediaFile[]
}

/** Reads the media folder (recursively); a missing folder is an empty library. */
export async function loadMedia(dir: string): Promise<MediaLibrary> {
  const files: MediaFile[] = []
  let names: string[] = []
  try {
    names = (await readdir(dir, { recursive: true })).map((name) => name.split('\\').join('/'))
  } catch {
    names = []
  }
  for (const name of names.sort()) {
    const extension = extname(name).slice(1).toLowerCase()
    if (!MIME[extension]) continue
    files.push(await readMedia(dir, name, extension))
  }
  const ids = new Map(files.filter((f) => f.id !== null).map((f) => [f.id!, f]))
  const paths = new Map(files.map((f) => [f.file, f]))
  return { byId: (id) => ids.get(id), byPath: (file) => paths.get(file), all: () => files }
}

async function readMedia(dir: string, name: string, extension: string): Promise<MediaFile> {
  const path = join(dir, name)
  const info = await stat(path)
  const base = name.split('/').pop()!
  const id = /^(\d+)-/.exec(base)
  const media: MediaFile = { file: name, id: id ? Number(id[1]) : null, extension, mime: MIME[extension]!, filesize: info.size }
  try {
    const size = imageSize(await readFile(path))
    media.width = size.width
    media.height = size.height
  } catch {
    // Not a readable image: served without dimensions rather than not at all.
  }
  return media
}

/** The content type of a media file name, or undefined when it is not an image we serve. */
export function mediaType(name: string): string | undefined {
  return MIME[extname(name).slice(1).toLowerCase()]
}
