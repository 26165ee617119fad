import { Dirent } from 'node:fs'
import { once } from 'node:events'
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
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
})
