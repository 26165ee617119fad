import { constants, lstatSync } from 'node:fs'
import { lstat, open, readdir } from 'node:fs/promises'
import { join, sep } from 'node:path'
import { KINDS } from '../model/kinds.ts'
import { mediaNames } from './media.ts'
import { RACY_MS, sameStamp, stampOf, type FileStamp } from '../files/read.ts'
import { isRecordFileName } from '../files/paths.ts'

const BATCH = 64

/**
 * How a comparison shares the event loop. An lstat of a file the kernel has cached takes a few microseconds done on
 * the loop, many times that through a promise and the pool: a comparison of 41,920 files took 0.75–1 s of CPU so
 * and held the loop up to 75 ms at a time; 0.19–0.3 s on the loop, 13–21 ms at most (section 6 of
 * docs/architecture.md). So stamps are taken on the loop, which gets a turn every `sliceMs`; once a slice shows the
 * file system slow (more than `slowLstatUs` a file: a network mount, a cold disk, where one lstat can take
 * milliseconds), the rest go through the pool, BATCH at a time, and the loop is not held by the disk.
 */
export interface Pace {
  sliceMs: number
  slowLstatUs: number
}

export const PACE: Pace = { sliceMs: 4, slowLstatUs: 100 }

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
export async function changedSince(dir: string, known: Known, pace = PACE): Promise<string[]> {
  // Every path on disk or known, once; the paths are checked ones (no empty, `.` or `..` segment), so a file's
  // path is the folder's with the path appended, as the store reads it (path.join was a tenth of a reconcile).
  const { paths, folders } = await recordPaths(dir, pace)
  const add = (path: string) => paths.add(path)
  for (const some of [[...known.stamps.keys()], [...known.texts.keys()]]) await inSlices(some, pace, add)
  const prefix = dir === '' ? '' : join(dir, sep)
  const changed: string[] = []
  const racy: string[] = []
  // A file read from a kind folder that is now a link (or gone) is gone: lstat would follow the link on the way.
  const inFolder = folders.size === KINDS.length ? () => true : (path: string) => folders.has(kindOf(path))
  await eachStamp(paths, prefix, pace, (path, stamp) => {
    const verdict = compare(inFolder(path) ? stamp : null, known.stamps.get(path), known.texts.has(path))
    if (verdict === 'changed') changed.push(path)
    if (verdict === 'racy') racy.push(path)
  })
  await inBatches(racy, async (path) => {
    if ((await textAt(join(dir, path))) !== known.texts.get(path)) changed.push(path)
  })
  if (await mediaChanged(join(dir, 'media'), known.media, pace)) changed.push('media/')
  return changed.sort()
}

function compare(now: FileStamp | null, then: FileStamp | undefined, hasText: boolean): 'same' | 'changed' | 'racy' {
  if (!now) return then || hasText ? 'changed' : 'same'
  if (!then) return hasText ? 'racy' : 'changed'
  if (!sameStamp(now, then)) return 'changed'
  return then.readAt - then.mtimeMs < RACY_MS ? 'racy' : 'same'
}

const kindOf = (path: string) => path.slice(0, path.indexOf('/'))

/**
 * Every `<kind>/<name>.md` on disk, outside kind folders that are links (the store reads none of those), and the
 * kinds whose folder is a folder.
 */
async function recordPaths(dir: string, pace: Pace): Promise<{ paths: Set<string>; folders: Set<string> }> {
  const paths = new Set<string>()
  const folders = new Set<string>()
  for (const kind of KINDS) {
    const folder = await lstat(join(dir, kind)).catch(() => null)
    if (!folder?.isDirectory()) continue
    folders.add(kind)
    const names = await readdir(join(dir, kind)).catch(() => [] as string[])
    await inSlices(names, pace, (name) => {
      if (isRecordFileName(name)) paths.add(`${kind}/${name}`)
    })
  }
  return { paths, folders }
}

async function mediaChanged(dir: string, known: ReadonlyMap<string, FileStamp>, pace: Pace): Promise<boolean> {
  const onDisk = new Set(await mediaNames(dir))
  for (const name of known.keys()) if (!onDisk.has(name)) return true
  let changed = false
  await eachStamp(onDisk, join(dir, sep), pace, (name, now) => {
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

/** The same, through the pool. */
async function stampOnPool(path: string): Promise<FileStamp | null> {
  const stats = await lstat(path).catch(() => null)
  return stats && stampOf(stats)
}

/**
 * The stamp at `prefix` + each name, `visit`ed in turn: on the loop, a slice at a time, while the file system keeps
 * pace; the rest through the pool once a slice shows it slow (`Pace`). The clock is read after every lstat, as one
 * can take a while.
 */
async function eachStamp(
  names: Iterable<string>,
  prefix: string,
  pace: Pace,
  visit: (name: string, stamp: FileStamp | null) => void,
): Promise<void> {
  const left: string[] = []
  let slow = false
  let began = performance.now()
  let count = 0
  for (const name of names) {
    if (slow) {
      left.push(name)
      continue
    }
    visit(name, stampAt(prefix + name))
    count++
    const now = performance.now()
    if (now - began < pace.sliceMs) continue
    slow = ((now - began) * 1000) / count > pace.slowLstatUs
    await new Promise((resolve) => setImmediate(resolve))
    began = performance.now()
    count = 0
  }
  await inBatches(left, async (name) => visit(name, await stampOnPool(prefix + name)))
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

/** `work` (memory only, no disk) for each item in turn, the event loop given a turn every `pace.sliceMs`. */
async function inSlices<T>(items: Iterable<T>, pace: Pace, work: (item: T) => void): Promise<void> {
  let until = performance.now() + pace.sliceMs
  let done = 0
  for (const item of items) {
    work(item)
    if (++done % 64 === 0 && performance.now() >= until) {
      await new Promise((resolve) => setImmediate(resolve))
      until = performance.now() + pace.sliceMs
    }
  }
}

async function inBatches<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += BATCH) await Promise.all(items.slice(i, i + BATCH).map(work))
}
