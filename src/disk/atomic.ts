import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs'
import { mkdir, open, rename, rm, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { threadId } from 'node:worker_threads'

// The one way Almanac replaces a file (content records, the users file, the static export):
// the new bytes go to a temporary file beside the target, are flushed, and the temporary file is
// renamed over the target (atomic on one file system), then the folder is flushed so that the
// rename survives a power cut. A reader sees the old file or the new one, never half of one; a
// failed write removes its temporary file and leaves the old file as it was.

/** How a file is replaced. */
export interface AtomicOptions {
  /** The new file's mode (before the umask); 0o644 unless given (the users file is 0o600). */
  mode?: number
  /**
   * Flush the file and its folder to disk (the default). The static export turns it off: its files
   * are made again by the next build, and a flush per file would make a build many times slower.
   */
  durable?: boolean
  /** Make the target's folder when it is missing. */
  makeFolder?: boolean
  /**
   * Called once the new bytes are in place beside the target, just before they replace it: throwing leaves the
   * target as it was (the temporary file is removed). The store checks there that no editor saved meanwhile.
   */
  beforeReplace?: () => void
}

/** Temporary files: `.<pid>.<thread>.<random>.tmp`, beside their target (a dotfile, so watchers skip it). */
const TEMPORARY = /^\.\d+\.\d+\.[a-z0-9]+\.tmp$/

/** Whether a file name is one of the temporary files a replace makes (a killed process may leave one). */
export function isTemporaryName(name: string): boolean {
  return TEMPORARY.test(basename(name))
}

/** A fresh temporary path beside `target`. */
export function temporaryBeside(target: string): string {
  return join(dirname(target), `.${process.pid}.${threadId}.${Math.random().toString(36).slice(2)}.tmp`)
}

/** Replaces `target` with what `make` puts at the temporary path it is given (bytes, a link, a copy). */
export async function replaceAtomic(
  target: string,
  make: (temporary: string) => Promise<void>,
  options: AtomicOptions = {},
): Promise<void> {
  const temporary = temporaryBeside(target)
  try {
    await make(temporary).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT' || !options.makeFolder) throw error
      await mkdir(dirname(target), { recursive: true })
      await make(temporary)
    })
    // Checked and renamed in one turn of the event loop: through the pool, the rename could wait behind other work
    // while an editor saved after the check.
    if (options.beforeReplace) {
      options.beforeReplace()
      renameSync(temporary, target)
    } else await rename(temporary, target)
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => {})
    throw error
  }
  if (options.durable !== false) await syncFolder(dirname(target))
}

/** `replaceAtomic` for callers that must not yield (the users file, a build's worker thread). */
export function replaceAtomicSync(
  target: string,
  make: (temporary: string) => void,
  options: AtomicOptions = {},
): void {
  const temporary = temporaryBeside(target)
  try {
    try {
      make(temporary)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || !options.makeFolder) throw error
      mkdirSync(dirname(target), { recursive: true })
      make(temporary)
    }
    options.beforeReplace?.()
    renameSync(temporary, target)
  } catch (error) {
    rmSync(temporary, { force: true })
    throw error
  }
  if (options.durable !== false) syncFolderSync(dirname(target))
}

/** Replaces a file's content atomically. */
export function writeFileAtomic(path: string, data: string | Uint8Array, options: AtomicOptions = {}): Promise<void> {
  return replaceAtomic(
    path,
    async (temporary) => {
      const handle = await open(temporary, 'wx', options.mode ?? 0o644)
      try {
        await handle.writeFile(data)
        if (options.durable !== false) await handle.sync()
      } finally {
        await handle.close()
      }
    },
    options,
  )
}

/** `writeFileAtomic`, without yielding. */
export function writeFileAtomicSync(path: string, data: string | Uint8Array, options: AtomicOptions = {}): void {
  replaceAtomicSync(
    path,
    (temporary) => {
      const fd = openSync(temporary, 'wx', options.mode ?? 0o644)
      try {
        const bytes = typeof data === 'string' ? Buffer.from(data) : data
        for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done)
        if (options.durable !== false) fsyncSync(fd)
      } finally {
        closeSync(fd)
      }
    },
    options,
  )
}

/**
 * Deletes a file (a missing one is fine: nothing changes) and flushes its folder. `beforeRemove`, as `beforeReplace`:
 * throwing leaves the file.
 */
export async function removeFile(path: string, beforeRemove?: () => void): Promise<void> {
  const missing = (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error
    return false
  }
  let removed: boolean
  if (beforeRemove) {
    // Checked and removed in one turn of the event loop, as a checked replace is renamed.
    beforeRemove()
    try {
      unlinkSync(path)
      removed = true
    } catch (error) {
      removed = missing(error as NodeJS.ErrnoException)
    }
  } else removed = await unlink(path).then(() => true, missing)
  if (removed) await syncFolder(dirname(path))
}

async function syncFolder(dir: string): Promise<void> {
  const handle = await open(dir, 'r')
  try {
    await handle.sync()
  } catch {
    // Some file systems cannot flush a folder; the rename is still atomic there.
  } finally {
    await handle.close()
  }
}

function syncFolderSync(dir: string): void {
  const fd = openSync(dir, 'r')
  try {
    fsyncSync(fd)
  } catch {
    // As above.
  } finally {
    closeSync(fd)
  }
}
