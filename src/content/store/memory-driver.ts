import { isTemporaryName } from '../../disk/atomic.ts'
import { checkPath, type ContentDriver, type WatchListener } from './driver.ts'
import { StaleFilesError } from './errors.ts'
import type { CommitDates } from './git-dates.ts'
import { KINDS } from '../model/kinds.ts'
import { mediaLibrary } from './media.ts'
import { isRecordFileName } from '../files/paths.ts'

/** A content tree held in memory: the driver, and its files as they are now. */
export interface MemoryDriver extends ContentDriver {
  readonly files: ReadonlyMap<string, string>
}

/** A tree outside git: no file has a commit date. */
const NO_DATES: CommitDates = {
  get: () => undefined,
  changed: () => undefined,
  refresh: async () => [],
  inRepository: false,
}

/**
 * A content tree in a Map of path → text, for tests and tools that need no disk: a write replaces a
 * text whole (so it is atomic), and watchers hear every write and removal. Folders are implied by
 * the files in them; there are no links and no media.
 */
export function createMemoryDriver(initial: Record<string, string> = {}, dir = 'memory:'): MemoryDriver {
  const files = new Map<string, string>()
  const mtimes = new Map<string, number>()
  const listeners = new Set<WatchListener>()
  const tell = (path: string) =>
    queueMicrotask(() => {
      for (const listener of listeners) listener.changed([path])
    })
  const under = (folder: string) => [...files.keys()].filter((path) => path.startsWith(`${folder}/`))
  const put = (path: string, text: string) => {
    refuseClash(files, checkPath(path))
    files.set(path, text)
    mtimes.set(path, Date.now())
  }
  for (const [path, text] of Object.entries(initial)) put(path, text)
  return {
    dir,
    files,
    read(path) {
      const text = files.get(checkPath(path))
      return text === undefined ? null : { text, mtimeMs: mtimes.get(path)! }
    },
    peek: (path) => files.get(checkPath(path)) ?? null,
    async write(path, text, expected) {
      if (expected !== undefined && (files.get(checkPath(path)) ?? null) !== expected) throw new StaleFilesError([path])
      put(path, text)
      tell(path)
    },
    async remove(path, expected) {
      if (expected !== undefined && (files.get(checkPath(path)) ?? null) !== expected) throw new StaleFilesError([path])
      if (!files.delete(checkPath(path))) return
      mtimes.delete(path)
      tell(path)
    },
    list(folder) {
      const names = under(checkPath(folder)).map((path) => path.slice(folder.length + 1).split('/')[0]!)
      return names.length > 0 ? [...new Set(names)].filter((name) => !isTemporaryName(name)).sort() : null
    },
    isLink(name) {
      checkPath(name)
      return false
    },
    hasFolder: (name) => under(checkPath(name)).length > 0,
    removeFolder: (name) => void checkPath(name),
    mtimeOf: (path) => mtimes.get(checkPath(path)) ?? 0,
    async changed(texts) {
      const paths = new Set([...[...files.keys()].filter(isRecordPath), ...texts.keys()])
      return [...paths].filter((path) => files.get(path) !== texts.get(path)).sort()
    },
    media: async () => mediaLibrary(),
    dates: NO_DATES,
    watch(listener) {
      listeners.add(listener)
      return { ready: Promise.resolve(), close: async () => void listeners.delete(listener) }
    },
  }
}

/** As on a disk, a file cannot sit where a folder is, nor under a name that is a file. */
function refuseClash(files: ReadonlyMap<string, string>, path: string): void {
  const parts = path.split('/')
  const folders = parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('/'))
  if (folders.some((folder) => files.has(folder)) || [...files.keys()].some((other) => other.startsWith(`${path}/`)))
    throw new Error(`cannot write ${path}: a file and a folder would share a name`)
}

/** A record file of a kind folder, as `changed` compares them. */
function isRecordPath(path: string): boolean {
  const [kind, name, ...rest] = path.split('/')
  return (
    rest.length === 0 && name !== undefined && (KINDS as readonly string[]).includes(kind!) && isRecordFileName(name)
  )
}
