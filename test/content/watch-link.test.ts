import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { watchFolder } from '../../src/content/store/disk-watch.ts'
import type { DriverWatch } from '../../src/content/store/driver.ts'

// The watcher follows no link inside the tree (a linked folder could be anywhere on the disk), and
// chokidar took the content folder itself for such a link when it was one (`content -> /srv/site`):
// it watched nothing under it, and every edit on disk went unseen while the store served the tree.

let base = ''
let watch: DriverWatch | undefined
afterEach(async () => {
  await watch?.close()
  watch = undefined
  await rm(base, { recursive: true, force: true })
})

async function until(test: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms
  while (!test() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 10))
}

describe('the disk watcher of a content folder reached through a link', () => {
  it('hears the files written and the folders made under it', async () => {
    base = await mkdtemp(join(tmpdir(), 'almanac-watch-link-'))
    await mkdir(join(base, 'site', 'events'), { recursive: true })
    await symlink(join(base, 'site'), join(base, 'content'))
    const heard = new Set<string>()
    watch = watchFolder(join(base, 'content'), {
      changed: (paths) => {
        for (const path of paths) heard.add(path)
      },
      failed: () => {},
    })
    await watch.ready
    await writeFile(join(base, 'content', 'events', 'a.md'), 'x')
    await mkdir(join(base, 'content', 'venues'))
    await until(() => heard.has('events/a.md') && heard.has('venues'))
    expect([...heard].sort()).toEqual(expect.arrayContaining(['events/a.md', 'venues']))
  })
})
