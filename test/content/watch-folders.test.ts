import { readdirSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, rename, rm, unlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { watchFolder } from '../../src/content/store/disk-watch.ts'
import type { DriverWatch } from '../../src/content/store/driver.ts'

// chokidar kept a system watch, a stat and closures for every file (~3.9 KB a file: 113–158 MB at
// 42,000 files, the largest part of the server's memory). A folder's watch already tells of every
// file in it, so the watcher keeps one per folder and hands on the names the system reports.

/** The inotify watches this process holds (every thread's), from /proc; undefined off Linux. */
function inotifyWatches(): number | undefined {
  let fds: string[]
  try {
    fds = readdirSync('/proc/self/fdinfo')
  } catch {
    return undefined
  }
  let count = 0
  for (const fd of fds)
    try {
      count += (readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8').match(/^inotify wd:/gm) ?? []).length
    } catch {
      // closed meanwhile (the listing's own descriptor)
    }
  return count
}

async function until(test: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms
  while (!test()) {
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

let dir = ''
let watch: DriverWatch | undefined
afterEach(async () => {
  await watch?.close()
  watch = undefined
  await rm(dir, { recursive: true, force: true })
})

async function watched(files: number): Promise<string[]> {
  dir = await mkdtemp(join(tmpdir(), 'almanac-watch-'))
  for (const kind of ['events', 'venues']) {
    await mkdir(join(dir, kind))
    for (let i = 0; i < files; i++) await writeFile(join(dir, kind, `e${i}.md`), `file ${i}`)
  }
  const heard: string[] = []
  watch = watchFolder(dir, { changed: (paths) => heard.push(...paths), failed: () => {} })
  await watch.ready
  return heard
}

describe('the disk watcher', () => {
  it.skipIf(inotifyWatches() === undefined)('holds one system watch per folder, not one per file', async () => {
    const before = inotifyWatches()!
    await watched(60)
    // The content folder and its two kind folders; 120 files add none.
    expect(inotifyWatches()! - before).toBeLessThanOrEqual(3)
  })

  it('tells of a file changed in place, written aside and renamed over, added, and removed', async () => {
    const heard = await watched(3)
    const sees = async (path: string, change: () => Promise<void>) => {
      heard.length = 0
      await change()
      await until(() => heard.includes(path))
    }
    await sees('events/e1.md', () => writeFile(join(dir, 'events', 'e1.md'), 'changed in place'))
    await sees('events/e2.md', async () => {
      await writeFile(join(dir, 'events', '.e2.md.tmp'), 'renamed over')
      await rename(join(dir, 'events', '.e2.md.tmp'), join(dir, 'events', 'e2.md'))
    })
    await sees('venues/new.md', () => writeFile(join(dir, 'venues', 'new.md'), 'added'))
    await sees('events/e0.md', () => unlink(join(dir, 'events', 'e0.md')))
    expect(heard.some((path) => path.includes('.tmp'))).toBe(false)
  })

  it('tells of the files of a folder made after the watch began', async () => {
    const heard = await watched(1)
    await mkdir(join(dir, 'tags'))
    await writeFile(join(dir, 'tags', 'a.md'), 'in a new folder')
    await until(() => heard.includes('tags/a.md') || heard.includes('tags'))
  })
})
