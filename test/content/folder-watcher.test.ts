import { Dirent } from 'node:fs'
import { once } from 'node:events'
import { mkdir, mkdtemp, type opendir, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { FolderWatcher, foldersIn } from '../../src/content/folder-watcher.mjs'

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

  // Where a file system gives no entry types (ext2 without `filetype`, some network and FUSE ones), each
  // entry is lstat'ed, and one gone meanwhile (an atomic save's temporary) is passed over: the folder must
  // not look empty, or chokidar unwatches its folders (13 of 30 edits in a subfolder went unheard on a
  // loop-mounted ext2 under churn with an earlier listing). Such a listing is made here from the real one.
  it('lstats an entry whose type the listing does not give, and passes over one gone meanwhile', async () => {
    dir = await mkdtemp(join(tmpdir(), 'almanac-folders-'))
    await mkdir(join(dir, 'sub'))
    await writeFile(join(dir, 'e.md'), 'x')
    const no = () => false
    const kinds = [
      'isFile',
      'isDirectory',
      'isSymbolicLink',
      'isFIFO',
      'isSocket',
      'isBlockDevice',
      'isCharacterDevice',
    ]
    const untyped = (name: string) => ({ name, ...Object.fromEntries(kinds.map((kind) => [kind, no])) })
    const names = ['e.md', 'sub', '.1.1.x.tmp']
    const open = (async () => ({
      async *[Symbol.asyncIterator]() {
        for (const name of names) yield untyped(name)
      },
    })) as unknown as typeof opendir
    const entries = []
    for await (const entry of foldersIn(dir, () => true, open)) entries.push(entry.basename)
    expect(entries).toEqual(['sub'])
  })

  it('lets the thread take other turns while it reads a folder, not once it has read all of it', async () => {
    dir = await mkdtemp(join(tmpdir(), 'almanac-folders-'))
    await Promise.all(Array.from({ length: 300 }, (_, i) => mkdir(join(dir, `f${i}`))))
    const log: string[] = []
    let counting = true
    const turn = () => {
      log.push('turn')
      if (counting) setImmediate(turn)
    }
    setImmediate(turn)
    for await (const entry of foldersIn(dir, () => true)) log.push(entry.basename)
    counting = false
    const read = log.flatMap((item, at) => (item === 'turn' ? [] : [at]))
    expect(read).toHaveLength(300)
    // A listing read whole and then gone through in one turn (readdirp's) has no turn among its folders.
    expect(log.slice(read[0], read.at(-1)).includes('turn')).toBe(true)
  })

  // Where the file system gives no types, Node's own listing lstats each entry of a batch as it reads it, and an
  // entry gone meanwhile fails the read (ENOENT naming the entry). Ended there, the listing would make chokidar
  // unwatch every folder not reached yet (watched again only at the folder's next listing).
  it('lists the folder again by name when an entry is gone as the listing looks at it', async () => {
    dir = await mkdtemp(join(tmpdir(), 'almanac-folders-'))
    for (const sub of ['sub1', 'sub2', 'sub3']) await mkdir(join(dir, sub))
    await writeFile(join(dir, 'e.md'), 'x')
    const gone = Object.assign(new Error('ENOENT: no such file or directory'), {
      code: 'ENOENT',
      path: join(dir, '.1.1.x.tmp'),
    })
    // The first entry, then the failed read: sub2 and sub3 were never reached.
    const open = (async () => ({
      async *[Symbol.asyncIterator]() {
        yield Object.assign(new Dirent(), { name: 'sub1', isDirectory: () => true })
        throw gone
      },
    })) as unknown as typeof opendir
    const entries = []
    for await (const entry of foldersIn(dir, () => true, open)) entries.push(entry.basename)
    expect(entries.sort()).toEqual(['sub1', 'sub2', 'sub3'])
  })
})
