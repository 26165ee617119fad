import fs, { Dirent } from 'node:fs'
import { once } from 'node:events'
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { syncBuiltinESMExports } from 'node:module'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { FolderWatcher } from '../../src/content/folder-watcher.mjs'

// The watcher keeps folders only, and chokidar reads a folder again after every change in it: a stat for
// each of 10,000 files per event written. Its listing already says which entries are folders.

let dir = ''
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('the folder watcher', () => {
  it('reads a folder again without a stat per file: only its folders come out, typed by the listing', async () => {
    dir = await mkdtemp(join(tmpdir(), 'almanac-folders-'))
    for (let i = 0; i < 40; i++) await writeFile(join(dir, `e${i}.md`), `file ${i}`)
    await mkdir(join(dir, 'sub'))
    await symlink(join(dir, 'e0.md'), join(dir, 'link.md'))
    const watcher = new FolderWatcher({})
    const everything = { fileFilter: () => true, directoryFilter: () => true }
    const entries = []
    for await (const entry of watcher._readdirp(dir, everything) ?? []) entries.push(entry)
    await watcher.close()
    expect(entries.map((entry) => entry.basename)).toEqual(['sub'])
    // A Stats would mean an lstat was made: chokidar's own listing makes one per entry.
    expect(entries[0]!.stats).toBeInstanceOf(Dirent)
  })

  // The override is worth something only while chokidar lists folders through it: a release that read
  // folders some other way would keep the method and never call it.
  it('is how chokidar lists each folder on its first look', async () => {
    dir = await mkdtemp(join(tmpdir(), 'almanac-folders-'))
    await mkdir(join(dir, 'sub'))
    const listed: string[] = []
    class Listing extends FolderWatcher {
      override _readdirp(root: string, options?: Parameters<FolderWatcher['_readdirp']>[1]) {
        listed.push(root)
        return super._readdirp(root, options)
      }
    }
    const watcher = new Listing({ ignoreInitial: true }).add(dir)
    await once(watcher, 'ready')
    await watcher.close()
    expect(listed.sort()).toEqual([dir, join(dir, 'sub')])
  })

  // Where a file system gives no entry types (ext2 without `filetype`, some network and FUSE ones), Node
  // lstats each entry of a typed listing itself, and one that goes meanwhile (an atomic save's
  // temporary) fails the whole listing: the folder looked empty, chokidar unwatched its folders and
  // edits in them went unheard until it was read again (13 of 30 on a loop-mounted ext2 under churn).
  // Node's typed listing is made to fail that way here, as the real file system did.
  it('lists a folder stat by stat when a typed listing fails for an entry gone meanwhile', async () => {
    dir = await mkdtemp(join(tmpdir(), 'almanac-folders-'))
    await mkdir(join(dir, 'sub'))
    await writeFile(join(dir, 'e.md'), 'x')
    const readdir = fs.promises.readdir
    fs.promises.readdir = (async (path: string, options?: { withFileTypes?: boolean }) => {
      if (!options?.withFileTypes) return readdir(path, options as never)
      const gone = join(path, '.1.1.x.tmp')
      throw Object.assign(new Error(`ENOENT: no such file or directory, lstat '${gone}'`), {
        code: 'ENOENT',
        syscall: 'lstat',
        path: gone,
      })
    }) as typeof readdir
    syncBuiltinESMExports()
    const watcher = new FolderWatcher({})
    const entries = []
    try {
      const folders = { fileFilter: () => false, directoryFilter: () => true }
      for await (const entry of watcher._readdirp(dir, folders) ?? []) entries.push(entry.basename)
    } finally {
      fs.promises.readdir = readdir
      syncBuiltinESMExports()
      await watcher.close()
    }
    expect(entries).toEqual(['sub'])
  })
})
