import { constants } from 'node:fs'
import { type FileHandle, lstat, open, readdir, realpath } from 'node:fs/promises'
import { extname, join, sep } from 'node:path'
import { imageSize } from 'image-size'
import { RACY_MS, sameStamp, stampOf, type FileStamp } from '../files/read.ts'

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

/** A file under `content/media/` that is never served or built, and why. */
export interface RefusedMedia {
  file: string
  reason: string
}

const MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  avif: 'image/avif',
}

/** The media library: every image under `content/media/`, by id and by path. */
export interface MediaLibrary {
  byId(id: number): MediaFile | undefined
  byPath(file: string): MediaFile | undefined
  all(): MediaFile[]
  /** Symbolic links and other files that are not regular files of the folder: never served. */
  refused(): RefusedMedia[]
  /** What each file under media/ was when read, to tell later whether it changed. */
  stamps(): ReadonlyMap<string, FileStamp>
}

const LINK = 'is a symbolic link: only regular files inside content/media are served and built'
/** Larger than any image a calendar shows; such a file is not read into memory to be served. */
export const MAX_MEDIA_BYTES = 50 * 1024 * 1024

/**
 * How much of an image other than a JPEG is read for its width and height: its header is at the start (a JPEG's
 * frame header is found by walking its segments, see `imageHead`). image-size reads a file with a JPEG's first bytes
 * and no markers at ~0.2 ms a KiB, and a media file may be 50 MiB: a stranger's one held each load, and each change
 * under media/, for seconds.
 */
export const IMAGE_HEAD_BYTES = 128 * 1024

/**
 * Reads the media folder (recursively); a missing folder is an empty library. A file whose stamp is the same as in
 * `previous` keeps its size from there, unread: a change under media/ reads only what changed.
 */
export async function loadMedia(dir: string, previous = mediaLibrary()): Promise<MediaLibrary> {
  const files: MediaFile[] = []
  const refused: RefusedMedia[] = []
  const stamps = new Map<string, FileStamp>()
  const root = await lstat(dir).catch(() => null)
  if (root?.isSymbolicLink()) refused.push({ file: '', reason: LINK })
  const names = root?.isDirectory() ? await mediaNames(dir) : []
  const real = root?.isDirectory() ? await realpath(dir) : ''
  for (const name of names) {
    const stats = await lstat(join(dir, name)).catch(() => null)
    if (!stats || stats.isDirectory()) continue
    stamps.set(name, stampOf(stats))
    const extension = extname(name).slice(1).toLowerCase()
    if (stats.isSymbolicLink()) refused.push({ file: name, reason: LINK })
    else if (!stats.isFile()) refused.push({ file: name, reason: 'is not a regular file, so it is not served' })
    else if ((await realpath(join(dir, name)).catch(() => '')) !== join(real, name))
      refused.push({ file: name, reason: 'is reached through a symbolic link, so it is not served' })
    else if (MIME[extension] && stats.size > MAX_MEDIA_BYTES)
      refused.push({ file: name, reason: `is larger than ${MAX_MEDIA_BYTES / 1024 / 1024} MiB, so it is not served` })
    else if (MIME[extension]) {
      const known = previous.byPath(name)
      files.push(
        known && unchanged(previous.stamps().get(name), stamps.get(name)!)
          ? known
          : await describe(dir, name, extension, stats.size),
      )
    }
  }
  return mediaLibrary(files, refused, stamps)
}

/** Whether a file read before is the same now: its stamp, read long enough after its last change to tell. */
function unchanged(before: FileStamp | undefined, now: FileStamp): boolean {
  return before !== undefined && sameStamp(before, now) && before.readAt - before.mtimeMs >= RACY_MS
}

/** A library of these files; with no arguments, an empty one (a tree without media/). */
export function mediaLibrary(
  files: MediaFile[] = [],
  refused: RefusedMedia[] = [],
  stamps: ReadonlyMap<string, FileStamp> = new Map(),
): MediaLibrary {
  const ids = new Map(files.filter((f) => f.id !== null).map((f) => [f.id!, f]))
  const paths = new Map(files.map((f) => [f.file, f]))
  return {
    byId: (id) => ids.get(id),
    byPath: (file) => paths.get(file),
    all: () => files,
    refused: () => refused,
    stamps: () => stamps,
  }
}

async function describe(dir: string, name: string, extension: string, filesize: number): Promise<MediaFile> {
  const base = name.split('/').pop()!
  const id = /^(\d+)-/.exec(base)
  const media: MediaFile = { file: name, id: id ? Number(id[1]) : null, extension, mime: MIME[extension]!, filesize }
  try {
    const size = imageSize((await readMediaFile(dir, name, imageHead)) ?? new Uint8Array())
    media.width = size.width
    media.height = size.height
  } catch {
    // Not a readable image: served without dimensions rather than not at all.
  }
  return media
}

/** Every name under the media folder (forward slashes, sorted), never looking inside a linked folder. */
export async function mediaNames(dir: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(join(dir, prefix), { withFileTypes: true }).catch(() => [])
  const names: string[] = []
  for (const entry of entries) {
    // Hidden files and folders (macOS's `._photo.png`, `.DS_Store`) are not the library's, as the watcher hears
    // none of them: a library read at start or again after a change holds the same files.
    if (entry.name.startsWith('.')) continue
    const name = prefix ? `${prefix}/${entry.name}` : entry.name
    if (entry.isDirectory()) names.push(...(await mediaNames(dir, name)))
    else names.push(name)
  }
  return names.sort()
}

/**
 * The bytes of a media file (or those `part` reads of it), only when it is still a regular file inside the folder:
 * opened without following a link, and its real path inside the folder's (no linked folder on the way).
 * Null otherwise: a file swapped for a link after loading is not served or built either.
 */
export async function readMediaFile(
  dir: string,
  file: string,
  part: (handle: FileHandle, size: number) => Promise<Buffer> = (handle) => handle.readFile(),
): Promise<Buffer | null> {
  const path = join(dir, file)
  const [inside, real] = await Promise.all([realpath(dir).catch(() => null), realpath(path).catch(() => null)])
  if (!inside || !real?.startsWith(inside + sep)) return null
  const handle = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0)).catch(
    () => null,
  )
  if (!handle) return null
  try {
    const stats = await handle.stat()
    return stats.isFile() && stats.size <= MAX_MEDIA_BYTES ? await part(handle, stats.size) : null
  } finally {
    await handle.close()
  }
}

/**
 * What image-size reads of a file: a JPEG's bytes up to the end of its frame header, found by walking its segments
 * (EXIF, colour profiles and XMP come first, and may pass any fixed head); any other image's first IMAGE_HEAD_BYTES.
 * A JPEG whose segments do not lead to a frame header gives nothing: image-size read such a file a byte at a time.
 */
async function imageHead(handle: FileHandle, size: number): Promise<Buffer> {
  const head = await bytesAt(handle, 0, Math.min(IMAGE_HEAD_BYTES, size))
  if (head[0] !== 0xff || head[1] !== 0xd8) return head
  const end = await jpegFrameEnd(handle, size)
  if (end === null) return Buffer.alloc(0)
  return end <= head.length ? head.subarray(0, end) : bytesAt(handle, 0, end)
}

/** JPEG markers of a frame header (SOF0–SOF15 but DHT, JPG and DAC), which holds the width and height. */
const FRAME_HEADERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf])
const MAX_SEGMENTS = 4096

/** Where a JPEG's frame header ends, walking its segments by their lengths; null when the walk breaks or ends first. */
async function jpegFrameEnd(handle: FileHandle, size: number): Promise<number | null> {
  let at = 2
  for (let n = 0; n < MAX_SEGMENTS && at + 4 <= size; n++) {
    const marker = await bytesAt(handle, at, 4)
    if (marker[0] !== 0xff) return null
    if (marker[1] === 0xff) {
      at++ // a fill byte
      continue
    }
    if (marker[1] === 0xd9 || marker[1] === 0xda) return null // the end, or scan data: no frame header before it
    const end = at + 2 + marker.readUInt16BE(2)
    if (FRAME_HEADERS.has(marker[1]!)) return end <= size ? end : null
    at = end
  }
  return null
}

async function bytesAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const bytes = Buffer.alloc(length)
  const { bytesRead } = await handle.read(bytes, 0, length, position)
  return bytes.subarray(0, bytesRead)
}

/** The content type of a media file name, or undefined when it is not an image we serve. */
export function mediaType(name: string): string | undefined {
  return MIME[extname(name).slice(1).toLowerCase()]
}
