import { constants } from 'node:fs'
import { lstat, open, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { KINDS } from '../model/kinds.ts'
import { mediaNames } from './media.ts'
import { RACY_MS, sameStamp, stampOf, type FileStamp } from '../files/read.ts'
import { isRecordFileName } from '../files/paths.ts'

const BATCH = 64

/** What the store knows of the files it read: stamps, and the text of each (read or written). */
export interface Known {
  stamps: ReadonlyMap<string, FileStamp>
  texts: ReadonlyMap<string, string>
  /** The media library's stamps, by path relative to media/. */
  media: ReadonlyMap<string, FileStamp>
}

/**
 * The paths (relative to the content folder) that differ on disk from what the store read: files
 * added, removed or modified since, and `media/` when any image did. Cheap for unchanged trees:
 * one lstat per file, and a read only of files modified too recently for their stamps to tell.
 */
export async function changedSince(dir: string, known: Known): Promise<string[]> {
  const onDisk = await recordPaths(dir)
  const paths = [...new Set([...onDisk, ...known.stamps.keys(), ...known.texts.keys()])].sort()
  const changed: string[] = []
  const racy: string[] = []
  await inBatches(paths, async (path) => {
    const verdict = compare(await stampAt(join(dir, path)), known.stamps.get(path), known.texts.has(path))
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
async function recordPaths(dir: string): Promise<string[]> {
  const paths: string[] = []
  for (const kind of KINDS) {
    const folder = await lstat(join(dir, kind)).catch(() => null)
    if (!folder?.isDirectory()) continue
    const names = await readdir(join(dir, kind)).catch(() => [] as string[])
    for (const name of names) if (isRecordFileName(name)) paths.push(`${kind}/${name}`)
  }
  return paths
}

async function mediaChanged(dir: string, known: ReadonlyMap<string, FileStamp>): Promise<boolean> {
  const onDisk = new Set(await mediaNames(dir))
  for (const name of known.keys()) if (!onDisk.has(name)) return true
  let changed = false
  await inBatches([...onDisk], async (name) => {
    const now = await stampAt(join(dir, name))
    const then = known.get(name)
    if (!now || !then || !sameStamp(now, then) || then.readAt - then.mtimeMs < RACY_MS) changed = true
  })
  return changed
}

async function stampAt(path: string): Promise<FileStamp | null> {
  const stats = await lstat(path).catch(() => null)
  return stats && stampOf(stats)
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

async function inBatches<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += BATCH) await Promise.all(items.slice(i, i + BATCH).map(work))
}
