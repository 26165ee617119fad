import type { CommitDates } from './git-dates.ts'
import type { MediaLibrary } from './media.ts'
import type { FileStamp } from '../files/read.ts'

/** A file of the tree as read: its text, null when there is none, or why it is refused. */
export type DriverRead = { text: string; mtimeMs: number } | { refused: string } | null

/** Hears a watched tree: the paths (relative, forward slashes) that changed, in batches. */
export interface WatchListener {
  changed(paths: string[]): void
  failed(error: Error): void
}

/** A running watch. */
export interface DriverWatch {
  /** Resolves once the watch sees the whole tree: later changes are all heard. */
  ready: Promise<void>
  close(): Promise<void>
}

/**
 * Where the content tree lives: the only thing the store asks for files (docs/architecture.md §5).
 * Paths are relative to the tree, with forward slashes; one that could leave it (`..`, absolute,
 * a backslash, an empty segment) is refused with an error. The disk driver (`disk-driver.ts`) and
 * the memory driver (`memory-driver.ts`) pass one contract suite (test/content/driver-contract.ts).
 */
export interface ContentDriver {
  /** The folder of the tree (a name for a tree that is not on disk). */
  readonly dir: string
  /** Reads a file, and remembers what it was for `changed`; `folderChecked`: its folder is known not to be a link. */
  read(path: string, folderChecked?: boolean): DriverRead
  /** A file's text now, or null (missing, not a regular file, unreadable); remembers nothing. */
  peek(path: string): string | null
  /**
   * Replaces a file atomically (its folder made when missing): a reader sees the old text or the new. With
   * `expected` (the text the caller planned over, null for no file), the file is read again just before it is
   * replaced, and a different text there (an editor's save landing meanwhile) leaves it alone: StaleFilesError.
   */
  write(path: string, text: string, expected?: string | null): Promise<void>
  /** Removes a file; a missing one is fine. With `expected`, as `write`. */
  remove(path: string, expected?: string | null): Promise<void>
  /** The names in a folder, sorted, without temporary files; null when there is no such folder. */
  list(folder: string): string[] | null
  isLink(name: string): boolean
  hasFolder(name: string): boolean
  /** Removes a folder when it is empty (else leaves it). */
  removeFolder(name: string): void
  /** When a file was last modified (ms), 0 when it is not there. */
  mtimeOf(path: string): number
  /** The record files and `media/` that differ from what was read (`texts`: the text read or written per path). */
  changed(texts: ReadonlyMap<string, string>, media: ReadonlyMap<string, FileStamp>): Promise<string[]>
  /** Reads the media library under `media/`. */
  media(): Promise<MediaLibrary>
  /** When each file was added, by git, for records without a date. */
  readonly dates: CommitDates
  /** Follows changes made to the tree (by anyone, this driver's writes included). */
  watch(listener: WatchListener): DriverWatch
}

/** A path as the drivers take it; anything that could leave the tree throws. */
export function checkPath(path: string): string {
  if (path.includes('\\') || path.includes('\0') || EMPTY_OR_DOTS.test(path))
    throw new Error(`refusing a path outside the content tree: ${JSON.stringify(path)}`)
  return path
}

/** A segment that is empty (a leading, trailing or doubled `/`), `.` or `..`: found without splitting the path. */
const EMPTY_OR_DOTS = /(?:^|\/)\.{0,2}(?:\/|$)/
