import { createHash } from 'node:crypto'
import { copyFileSync, type Dirent, linkSync, lstatSync, statSync } from 'node:fs'
import { copyFile, link, readdir, rm } from 'node:fs/promises'
import { dirname, join, relative, resolve, sep } from 'node:path'
import {
  isTemporaryName,
  replaceAtomic,
  replaceAtomicSync,
  writeFileAtomic,
  writeFileAtomicSync,
} from '../disk/atomic.ts'
import { createFile, createFileSync, linkNew } from './fresh-files.ts'
import { MANIFEST, type Manifest, type ManifestEntry } from './manifest.ts'

/**
 * The output folder of a build: files replaced atomically (a complete temporary file renamed over
 * the old one) and only when their content changed, with the manifest of what is there.
 */
export interface Output {
  readonly manifest: Manifest
  /** Files written (not skipped as unchanged) and removed since the last `take`. */
  take(): { written: number; removed: number }
  put(file: string, data: Buffer): Promise<void>
  /** A file with the same content as `source`, written in this run: a hard link to it where the file system allows. */
  putSame(file: string, source: string): Promise<void>
  remove(file: string): Promise<void>
  /** Whether `file` holds what the manifest says it does (its size, as \`put\` checks) with no write to it in flight. */
  holds(file: string): boolean
  /** Resolves once every write started has landed. */
  drain(): Promise<void>
}

// Writes go out while the next answers render: awaiting each one left a build idle 40% of the time.
const WRITES_IN_FLIGHT = 64

/**
 * An output over `out`. Synchronous writes are cheaper per file (fs/promises' writeFile costs a
 * dozen promise turns a file), but a thread that makes them waits out every file creation; a build
 * writes asynchronously (its render workers too: a busy disk made a new file's `open` a quarter of a
 * worker's time), so that rendering goes on meanwhile.
 */
export function createOutput(out: string, manifest: Manifest, sync: boolean, fresh = false, guarded = false): Output {
  const root = resolve(out)
  // A full build looked for links once, before it began (`readyOutput`); a guarded output (the updates after it, which
  // may come long after) looks on the way to each file, each folder once a run.
  const realFolders = new Set<string>()
  const guard = (file: string) => guarded && refuseLinksOnTheWay(root, inside(root, file), realFolders)
  // Into an empty folder, a new file is written in place (`fresh-files.ts`); one there already is replaced.
  const replaceNow = (file: string, data: Buffer) => {
    if (!(fresh && createFileSync(inside(root, file), data))) replaceFileSync(root, file, data)
  }
  const replaceLater = async (file: string, data: Buffer) => {
    if (!(fresh && (await createFile(inside(root, file), data)))) await replaceFile(root, file, data)
  }
  const inFlight = new Map<string, Promise<void>>()
  let counts = { written: 0, removed: 0 }
  // The first write that failed, thrown to the run by the next put or drain; the writes still in
  // flight then land or fail unheard, never as an unhandled rejection.
  let failure: Error | undefined
  const check = () => {
    const error = failure
    failure = undefined
    if (error) throw error
  }
  const schedule = async (file: string, write: () => Promise<void>) => {
    counts.written++
    // A second write of a file goes after the first, so the last put is what lands; each write forgets only itself.
    const done: Promise<void> = (inFlight.get(file) ?? Promise.resolve())
      .then(write)
      .catch((error: Error) => void (failure ??= error))
      .finally(() => inFlight.get(file) === done && inFlight.delete(file))
    inFlight.set(file, done)
    if (inFlight.size >= WRITES_IN_FLIGHT) await Promise.race(inFlight.values())
    check()
  }
  const drain = async () => {
    await Promise.all(inFlight.values())
    check()
  }
  /**
   * Whether a file already holds this content: the manifest says so and the file is there, as long
   * as the manifest says (one deleted or cut short since the last build is written again).
   */
  const unchanged = (file: string, entry: ManifestEntry) =>
    manifest.get(file)?.sha256 === entry.sha256 && sizeOf(inside(root, file)) === entry.bytes
  /** Writes a file now (sync) or in flight; a write that fails takes its manifest entry with it. */
  const write = async (file: string, entry: ManifestEntry, now: () => void, later: () => Promise<void>) => {
    const forget = (error: Error) => {
      if (manifest.get(file) === entry) manifest.delete(file)
      throw error
    }
    if (!sync) return schedule(file, () => later().catch(forget))
    counts.written++
    try {
      now()
    } catch (error) {
      forget(error as Error)
    }
  }
  return {
    manifest,
    take() {
      realFolders.clear()
      const taken = counts
      counts = { written: 0, removed: 0 }
      return taken
    },
    async put(file, data) {
      guard(file)
      const entry = { bytes: data.length, sha256: createHash('sha256').update(data).digest('hex') }
      if (unchanged(file, entry)) return
      manifest.set(file, entry)
      await write(
        file,
        entry,
        () => replaceNow(file, data),
        () => replaceLater(file, data),
      )
    },
    async putSame(file, source) {
      guard(file)
      const entry = manifest.get(source)
      // A source whose write failed has no entry: the run fails with that write's error, now.
      if (!entry) return check()
      if (unchanged(file, entry)) return
      manifest.set(file, entry)
      const written = inFlight.get(source)
      await write(
        file,
        entry,
        () => linkOrCopySync(root, file, source),
        async () => {
          await written
          if (manifest.get(source) !== entry) throw new Error(`${source} was not written, so ${file} was not either`)
          if (!(fresh && (await linkNew(inside(root, source), inside(root, file)))))
            await linkOrCopy(root, file, source)
        },
      )
    },
    async remove(file) {
      if (!manifest.has(file)) return
      guard(file)
      await drain()
      manifest.delete(file)
      await rm(inside(root, file), { force: true })
      counts.removed++
    },
    holds(file) {
      const entry = manifest.get(file)
      return entry !== undefined && !inFlight.has(file) && sizeOf(inside(root, file)) === entry.bytes
    },
    drain,
  }
}

/** Writes the manifest, replacing the last one whole. */
export async function writeManifest(out: string, manifest: Manifest, head: Record<string, unknown>): Promise<void> {
  await replaceFile(resolve(out), MANIFEST, manifest.bytes(head))
}

// Build output is made again by the next build: it is replaced atomically, but not flushed file by
// file (docs/architecture.md §5). The mode is the one a plain write gives (0o666 less the umask).
const REPLACE = { durable: false, makeFolder: true, mode: 0o666 } as const

function replaceFile(root: string, file: string, data: Buffer): Promise<void> {
  return writeFileAtomic(inside(root, file), data, REPLACE)
}

function replaceFileSync(root: string, file: string, data: Buffer): void {
  writeFileAtomicSync(inside(root, file), data, REPLACE)
}

// A by-slug answer is its by-id answer: a hard link writes no bytes twice. Where links are refused
// (some file systems), a copy.
function linkOrCopy(root: string, file: string, source: string): Promise<void> {
  const from = inside(root, source)
  return replaceAtomic(
    inside(root, file),
    (temporary) => link(from, temporary).catch(() => copyFile(from, temporary)),
    REPLACE,
  )
}

function linkOrCopySync(root: string, file: string, source: string): void {
  const from = inside(root, source)
  replaceAtomicSync(
    inside(root, file),
    (temporary) => {
      try {
        linkSync(from, temporary)
      } catch {
        copyFileSync(from, temporary)
      }
    },
    REPLACE,
  )
}

/**
 * Makes the output folder ready for a full build: removes temporary files a build killed mid-write left behind, so
 * that they are never published, and refuses a symbolic link anywhere inside it. A build would write through a
 * linked folder wherever it points, and a linked file that kept its size would be taken as written and published
 * as it points (the folder itself may be a link: the operator chose it).
 */
export async function readyOutput(out: string): Promise<void> {
  const found = await readdir(out, { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    // No output folder yet; a folder inside it removed during the listing is no reason to skip the look.
    if (error.code === 'ENOENT' && error.path !== undefined && resolve(error.path) === resolve(out)) return []
    throw error
  })
  const path = (entry: Dirent) => relative(out, join(entry.parentPath, entry.name))
  const link = found.find((entry) => entry.isSymbolicLink())
  if (link) throw new Error(`${join(out, path(link))} is a symbolic link; ${NO_LINKS}`)
  await Promise.all(found.filter((e) => isTemporaryName(e.name)).map((e) => rm(join(out, path(e)), { force: true })))
}

const NO_LINKS =
  'a build writes only into folders and files of its own, so remove the link or build into another folder'

/** Throws if `target` or a folder between `root` and it is a symbolic link; `real` holds folders found not to be. */
function refuseLinksOnTheWay(root: string, target: string, real: Set<string>): void {
  for (let at = target; at.length > root.length && !real.has(at); at = dirname(at)) {
    const found = lstatSync(at, { throwIfNoEntry: false })
    if (found?.isSymbolicLink()) throw new Error(`${at} is a symbolic link; ${NO_LINKS}`)
    if (found?.isDirectory()) real.add(at)
  }
}

function sizeOf(path: string): number | undefined {
  return statSync(path, { throwIfNoEntry: false })?.size
}

/** A path inside the output folder; anything that would escape it is refused. */
function inside(root: string, file: string): string {
  const target = resolve(root, file)
  if (target !== root && !target.startsWith(root + sep)) throw new Error(`refusing to write outside ${root}: ${file}`)
  return target
}
