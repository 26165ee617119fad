import { existsSync, readdirSync, rmdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { isTemporaryName, removeFile, writeFileAtomic } from '../../disk/atomic.ts'
import { watchFolder } from './disk-watch.ts'
import { checkPath, type ContentDriver } from './driver.ts'
import { createCommitDates } from './git-dates.ts'
import { loadMedia, type MediaLibrary } from './media.ts'
import { createDiskReader, readTextOrNull, type FileStamp } from '../files/read.ts'
import { changedSince } from './reconcile.ts'

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
  return {
    dir,
    read: (path, folderChecked) => readFromDisk(checkPath(path), folderChecked),
    peek: (path) => readTextOrNull(at(path)),
    // The stamp is dropped: the text is known, so a later `changed` compares texts, not stamps.
    async write(path, text) {
      stamps.delete(path)
      await writeFileAtomic(at(path), text, { makeFolder: true })
    },
    async remove(path) {
      stamps.delete(path)
      await removeFile(at(path))
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
