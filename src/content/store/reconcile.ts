import { constants, lstatSync } from 'node:fs'
import { lstat, open, readdir } from 'node:fs/promises'
import { join, sep } from 'node:path'
import { KINDS } from '../model/kinds.ts'
import { mediaNames } from './media.ts'
import { RACY_MS, sameStamp, stampOf, type FileStamp } from '../files/read.ts'
import { isRecordFileName } from '../files/paths.ts'

const BATCH = 64
/**
 * How long a comparison works on the event loop before the loop gets a turn. An lstat of a file the kernel has
 * cached takes a few microseconds done here, many times that through a promise and the pool: a comparison of
 * 41,920 files took 0.75–1 s of CPU so and held the loop up to 75 ms at a time; 0.23–0.3 s now, 13–19 ms at most.
 */
const SLICE_MS = 4

/** What the store knows of the files it read: stamps, and the text of each (read or written). */
export interface Known {
  stamps: ReadonlyMap<string, FileStamp>
  texts: ReadonlyMap<string, string>
  /** The media library's stamps, by path relative to media/. */
  media: ReadonlyMap<string, FileStamp>
}

/**
 * The paths (relative to the content folder) that differ on disk from what the store read: files
 * added, removed or modified since, and `media/` when any image did. Cheap for unchanged trees: one lstat per
 * file, a slice at a time, and a read only of files modified too recently for their stamps to tell.
 */
export async function changedSince(dir: string, known: Known): Promise<string[]> {
  // Every path on disk or known, once; the paths are checked ones (no empty, `.` or `..` segment), so a file's
  // path is the folder's with the path appended, as the store reads it (path.join was a tenth of a reconcile).
  const paths = await recordPaths(dir)
  const add = (path: string) => paths.add(path)
  for (const some of [[...known.stamps.keys()], [...known.texts.keys()]]) await inSlices(some, add)
  const prefix = dir === '' ? '' : join(dir, sep)
  const changed: string[] = []
  const racy: string[] = []
  await inSlices(paths, (path) => {
    const verdict = compare(stampAt(prefix + path), known.stamps.get(path), known.texts.has(path))
    if (verdict === 'changed') changed.push(path)
    if (verdict === 'racy') racy.push(path)
  })
  await inBatches(racy, async (path) => {
    if ((await textAt(join(dir, path))) !== known.texts.get(path)) changed.push(path)
  })
  if (await mediaChanged(join(dir, 'media'), known.media)) changed.push('media/')
  return changed.sort()
}

function compare(now: FileStamp | null, then: FileStamp | undefined, hasText: boolean): 'same' | 'changed' | 'racy' {
  if (!now) return then || hasText ? 'changed' : 'same'
  if (!then) return hasText ? 'racy' : 'changed'
  if (!sameStamp(now, then)) return 'changed'
  return then.readAt - then.mtimeMs < RACY_MS ? 'racy' : 'same'
}

/** Every `<kind>/<name>.md` on disk, outside kind folders that are links (the store reads none of those). */
async function recordPaths(dir: string): Promise<Set<string>> {
  const paths = new Set<string>()
  for (const kind of KINDS) {
    const folder = await lstat(join(dir, kind)).catch(() => null)
    if (!folder?.isDirectory()) continue
    const names = await readdir(join(dir, kind)).catch(() => [] as string[])
    await inSlices(names, (name) => {
      if (isRecordFileName(name)) paths.add(`${kind}/${name}`)
    })
  }
  return paths
}

async function mediaChanged(dir: string, known: ReadonlyMap<string, FileStamp>): Promise<boolean> {
  const onDisk = new Set(await mediaNames(dir))
  for (const name of known.keys()) if (!onDisk.has(name)) return true
  let changed = false
  await inSlices(onDisk, (name) => {
    const now = stampAt(join(dir, name))
    const then = known.get(name)
    if (!now || !then || !sameStamp(now, then) || then.readAt - then.mtimeMs < RACY_MS) changed = true
  })
  return changed
}

/** The stamp of what is at `path` (a link's own), or null when nothing can be stated there. */
function stampAt(path: string): FileStamp | null {
  try {
    const stats = lstatSync(path, { throwIfNoEntry: false })
    return stats ? stampOf(stats) : null
  } catch {
    return null
  }
}

/** A file's text, never through a link; null when it cannot be read as a regular file. */
async function textAt(path: string): Promise<string | null> {
  const handle = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0)).catch(
    () => null,
  )
  if (!handle) return null
  try {
    return (await handle.stat()).isFile() ? await handle.readFile('utf8') : null
  } finally {
    await handle.close()
  }
}

/** `work` for each item in turn, on this thread, the event loop given a turn whenever SLICE_MS have passed. */
async function inSlices<T>(items: Iterable<T>, work: (item: T) => void): Promise<void> {
  let until = performance.now() + SLICE_MS
  let done = 0
  for (const item of items) {
    work(item)
    if (++done % 64 === 0 && performance.now() > until) {
      await new Promise((resolve) => setImmediate(resolve))
      until = performance.now() + SLICE_MS
    }
  }
}

async function inBatches<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += BATCH) await Promise.all(items.slice(i, i + BATCH).map(work))
}
