import { existsSync, readdirSync, realpathSync, rmdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { isTemporaryName, removeFile, writeFileAtomic } from '../../disk/atomic.ts'
import { watchFolder } from './disk-watch.ts'
import { checkPath, type ContentDriver } from './driver.ts'
import { createCommitDates } from './git-dates.ts'
import { loadMedia, type MediaLibrary } from './media.ts'
import { createDiskReader, readTextOrNull, type FileStamp } from '../files/read.ts'
import { changedSince } from './reconcile.ts'
import { StaleFilesError } from './errors.ts'

/**
 * The check made just before a file is replaced or removed: the planned-over text is still there. What an editor
 * saves after it is still lost (nothing locks a file against an editor), but the window is a read and a rename, not
 * the temporary file's write and flush.
 */
function unchanged(target: string, path: string, expected: string | null | undefined): (() => void) | undefined {
  if (expected === undefined) return undefined
  return () => {
    if (readTextOrNull(target) !== expected) throw new StaleFilesError([path])
  }
}

/** Where a folder is, through any link; the folder as named when it cannot be resolved. */
function realFolder(dir: string): string {
  try {
    return realpathSync(dir)
  } catch {
    return dir
  }
}

/**
 * The content tree in a folder on disk. Reads take only regular files (never through a link);
 * writes replace files atomically (`src/disk/atomic.ts`); what each file was when read (its
 * stamp) is kept so that `changed` finds what moved without reading every file again.
 */
export function createDiskDriver(dir: string): ContentDriver {
  const stamps = new Map<string, FileStamp>()
  let media: MediaLibrary | undefined // the last read, whose unchanged files are not read again
  const { readFromDisk, isLink } = createDiskReader(dir, stamps)
  const at = (path: string) => join(dir, checkPath(path))
  // A write resolves the folder once (a link to it may be pointed elsewhere on a deploy while it runs): its temporary
  // file, the check, the rename and the clean-up after a failure all happen in the same folder. Through the link at
  // each step, a swap between two steps left temporary files behind and failed a rename (500).
  const atNow = (path: string) => join(realFolder(dir), checkPath(path))
  return {
    dir,
    read: (path, folderChecked) => readFromDisk(checkPath(path), folderChecked),
    peek: (path) => readTextOrNull(at(path)),
    // The stamp is dropped: the text is known, so a later `changed` compares texts, not stamps.
    async write(path, text, expected) {
      stamps.delete(path)
      const target = atNow(path)
      await writeFileAtomic(target, text, { makeFolder: true, beforeReplace: unchanged(target, path, expected) })
    },
    async remove(path, expected) {
      stamps.delete(path)
      const target = atNow(path)
      await removeFile(target, unchanged(target, path, expected))
    },
    list(folder) {
      try {
        return readdirSync(at(folder))
          .filter((name) => !isTemporaryName(name))
          .sort()
      } catch {
        return null
      }
    },
    isLink: (name) => isLink(checkPath(name)),
    hasFolder: (name) => existsSync(at(name)),
    removeFolder(name) {
      try {
        rmdirSync(at(name))
      } catch {
        // Not empty: something else wrote there meanwhile; leave it.
      }
    },
    mtimeOf(path) {
      try {
        return statSync(at(path)).mtimeMs
      } catch {
        return 0
      }
    },
    changed: (texts, media) => changedSince(dir, { stamps, texts, media }),
    media: async () => (media = await loadMedia(join(dir, 'media'), media)),
    dates: createCommitDates(dir),
    watch: (listener) => watchFolder(dir, listener),
  }
}
