import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, type Stats } from 'node:fs'
import { join, sep } from 'node:path'

/** The largest content file read: four times the largest request body, far beyond any real record. */
export const MAX_CONTENT_BYTES = 4 * 1024 * 1024

/** A content file as read: its text and the stamp of the file it came from. */
export interface ReadText {
  text: string
  stamp: FileStamp
}

/**
 * What identifies one version of a file without reading it: inode, size, change and modification times.
 * Kept as numbers: formatting them into one string cost two float-to-text conversions per file at every
 * load and every comparison of the tree (~20 ms of CPU per 42,000 files).
 */
export interface FileStamp {
  ino: number
  size: number
  ctimeMs: number
  mtimeMs: number
  /** When it was read: a file modified within the file system's clock step of that could change unseen. */
  readAt: number
}

/**
 * Within this long of being modified, a file read may still change without its stamp changing:
 * file-system clocks step in ticks (a few ms on Linux, 1–2 s on some file systems), so a second
 * edit of the same size in the tick of the first keeps inode, size and times. Such files are
 * compared by text, as git does with its "racily clean" entries.
 */
export const RACY_MS = 2_000

/** A file that is there but is not one the store reads: a link, a folder, a device, a huge file. */
export class NotAFileError extends Error {}

// O_NOFOLLOW makes opening a symbolic link fail (ELOOP) instead of reading its target; O_NONBLOCK
// keeps a FIFO from blocking the open. Where the platform has no O_NOFOLLOW, an lstat comes first.
const FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0)

/**
 * Reads a content file only when it is a regular file itself: never through a symbolic link
 * (the link could name /etc/passwd or the users file), never a folder, FIFO or device, never more
 * than MAX_CONTENT_BYTES. Returns null when there is no file; throws NotAFileError for the rest.
 * `scratch`, a buffer the caller reuses, saves allocating one per file when the file fits in it.
 */
export function readRegularFile(path: string, scratch?: Buffer): ReadText | null {
  let fd: number
  try {
    if (!constants.O_NOFOLLOW && lstatSync(path).isSymbolicLink()) throw linkError()
    fd = openSync(path, FLAGS)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return null
    // The file itself is a link, or a folder on the way loops (a content folder linked into a loop): that file is
    // not there, as behind a missing folder.
    if (code === 'ELOOP' || code === 'EMLINK') {
      if (linkItself(path)) throw linkError()
      return null
    }
    throw error
  }
  try {
    const stats = fstatSync(fd)
    if (!stats.isFile()) throw new NotAFileError('is not a regular file, so it is not read')
    if (stats.size > MAX_CONTENT_BYTES)
      throw new NotAFileError(`is larger than ${MAX_CONTENT_BYTES / 1024 / 1024} MiB, so it is not read`)
    return { text: readText(fd, stats.size, scratch), stamp: stampOf(stats) }
  } finally {
    closeSync(fd)
  }
}

/**
 * The text of an open file of `size` bytes (as fstat gave it), read into `scratch` when it fits: one
 * read where readFileSync would stat the file again and allocate, a fifth of the cost of a load.
 * A file that shrank since is read to its end; one that grew is read as it was when stated.
 */
function readText(fd: number, size: number, scratch: Buffer | undefined): string {
  const buffer = scratch && size <= scratch.length ? scratch : Buffer.allocUnsafe(size)
  let length = 0
  while (length < size) {
    const read = readSync(fd, buffer, length, size - length, null)
    if (read === 0) break
    length += read
  }
  return buffer.toString('utf8', 0, length)
}

/** Whether `path` itself is a symbolic link (false when it cannot be stated: a folder on the way loops). */
function linkItself(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink()
  } catch {
    return false
  }
}

function linkError(): NotAFileError {
  return new NotAFileError('is a symbolic link: content files are read only when they are regular files')
}

/** The stamp of a file from its stats. */
export function stampOf(stats: Stats): FileStamp {
  return { ino: stats.ino, size: stats.size, ctimeMs: stats.ctimeMs, mtimeMs: stats.mtimeMs, readAt: Date.now() }
}

/** Whether two stamps name the same version of a file (inode, size and both times alike). */
export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs
}

/** Reads a small text file that must be a regular file, or null (a link, a folder, missing, unreadable). */
export function readTextOrNull(path: string): string | null {
  try {
    return readRegularFile(path)?.text ?? null
  } catch {
    return null
  }
}

/** Most content files are a few kilobytes: larger ones get a buffer of their own. */
const SCRATCH_BYTES = 64 * 1024

/** A file of the tree as the store reads it: its text, null when it is gone, or why it is refused. */
export type DiskRead = { text: string; mtimeMs: number } | { refused: string } | null

/**
 * The store's reads of its content folder, keeping each file's stamp in `stamps`. A file that is
 * not a regular file of the tree (a symbolic link, a folder, a FIFO, a huge file, anything in a
 * linked kind folder) is never read, so a link to /etc/passwd or to the users file is never loaded.
 */
export function createDiskReader(dir: string, stamps: Map<string, FileStamp>) {
  const scratch = Buffer.allocUnsafe(SCRATCH_BYTES)
  // The folder with its separator, once: `path` is checked (no empty, `.` or `..` segment), so joining is
  // appending, and path.join's normalizing was a twentieth of what a load allocated. '' is the current folder,
  // as path.join reads it, not the root.
  const prefix = dir === '' ? '' : join(dir, sep)
  /** Whether a name under the content folder is a symbolic link. */
  const isLink = (name: string): boolean => {
    try {
      return lstatSync(join(dir, name)).isSymbolicLink()
    } catch {
      return false
    }
  }
  /** `folderChecked`: the caller already knows the kind folder is not a link. */
  const readFromDisk = (path: string, folderChecked = false): DiskRead => {
    const full = prefix + path
    // No stamp is kept for it (an lstat would follow the link): once the folder is a folder again, the file is new.
    if (!folderChecked && isLink(path.split('/')[0]!)) {
      stamps.delete(path)
      return { refused: 'is in a kind folder that is a symbolic link, so it is not read' }
    }
    try {
      const read = readRegularFile(full, scratch)
      if (read) stamps.set(path, read.stamp)
      else stamps.delete(path)
      return read && { text: read.text, mtimeMs: read.stamp.mtimeMs }
    } catch (error) {
      try {
        stamps.set(path, stampOf(lstatSync(full)))
      } catch {
        stamps.delete(path)
      }
      return { refused: error instanceof NotAFileError ? error.message : `cannot be read: ${(error as Error).message}` }
    }
  }
  return { readFromDisk, isLink }
}
