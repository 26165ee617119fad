import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { watchFolder } from '../../src/content/store/disk-watch.ts'
import type { DriverWatch } from '../../src/content/store/driver.ts'
import { eventually } from './trees.ts'

// Shapes of change the batched listing (folder-watcher.mjs) and the server's gathering (gather-names.ts) must
// still tell: folders made, renamed and removed, files moved between folders; never what is behind a link.

let dirs: string[] = []
let watch: DriverWatch | undefined
afterEach(async () => {
  await watch?.close()
  watch = undefined
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
  dirs = []
})

async function watched(link = false) {
  const real = await mkdtemp(join(tmpdir(), 'almanac-shapes-'))
  const outside = await mkdtemp(join(tmpdir(), 'almanac-shapes-out-'))
  dirs.push(real, outside)
  await mkdir(join(real, 'events', 'sub'), { recursive: true })
  await writeFile(join(outside, 'x.md'), 'x')
  await symlink(outside, join(real, 'events', 'linked'))
  let dir = real
  if (link) {
    dir = `${real}-link`
    await symlink(real, dir)
    dirs.push(dir)
  }
  const heard: string[] = []
  watch = watchFolder(dir, { changed: (paths) => heard.push(...paths), failed: () => {} })
  await watch.ready
  return { real, outside, heard }
}

describe('the watcher', () => {
  for (const link of [false, true])
    it(`follows folders made, renamed and removed, and no linked folder${link ? ', under a linked content folder' : ''}`, async () => {
      const { real, outside, heard } = await watched(link)
      await writeFile(join(outside, 'y.md'), 'y') // behind a link: never told
      await mkdir(join(real, 'events', 'made'))
      await writeFile(join(real, 'events', 'made', 'a.md'), 'a')
      await eventually(() => expect(heard.includes('events/made')).toBe(true), 3_000)
      await new Promise((resolve) => setTimeout(resolve, 150))
      await writeFile(join(real, 'events', 'made', 'b.md'), 'b')
      await eventually(() => expect(heard.includes('events/made/b.md')).toBe(true), 3_000)
      await rename(join(real, 'events', 'made', 'b.md'), join(real, 'events', 'sub', 'b.md'))
      await eventually(() => expect(heard.includes('events/sub/b.md')).toBe(true), 3_000)
      await rename(join(real, 'events', 'made'), join(real, 'events', 'moved'))
      await eventually(() => expect(heard.includes('events/moved')).toBe(true), 3_000)
      await new Promise((resolve) => setTimeout(resolve, 1_100)) // chokidar's throttle on re-reading a folder
      await writeFile(join(real, 'events', 'moved', 'c.md'), 'c')
      await eventually(() => expect(heard.includes('events/moved/c.md')).toBe(true), 3_000)
      await rm(join(real, 'events', 'sub'), { recursive: true })
      await eventually(() => expect(heard.includes('events/sub')).toBe(true), 3_000)
      expect(heard.filter((name) => name.includes('linked/'))).toEqual([])
    })
})
