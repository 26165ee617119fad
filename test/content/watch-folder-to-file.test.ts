import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { watchFolder } from '../../src/content/store/disk-watch.ts'
import type { DriverWatch } from '../../src/content/store/driver.ts'
import { eventually } from './trees.ts'

// The watcher checks whether a heard name's file is there yet (disk-watch.ts). lstat with `throwIfNoEntry: false`
// still throws ENOTDIR when a folder on the way became a file (a checkout between branches that disagree, `rm -r x
// && touch x`). That check ran in the gatherer's timer and left its name pending: every later batch threw again,
// and no edit reached the store until a restart.

let dir = ''
let watch: DriverWatch | undefined
const stray: unknown[] = []
const catchStray = (error: unknown) => stray.push(error)
afterEach(async () => {
  process.off('uncaughtException', catchStray)
  await watch?.close()
  watch = undefined
  await rm(dir, { recursive: true, force: true })
})

describe('a folder replaced by a file of the same name', () => {
  it('still hands on later edits', async () => {
    // as `almanac serve` does (keepServingThroughStrayErrors): log and go on
    process.on('uncaughtException', catchStray)
    dir = await mkdtemp(join(tmpdir(), 'almanac-folder-file-'))
    await mkdir(join(dir, 'events', 'x'), { recursive: true })
    await writeFile(join(dir, 'events', 'x', 'a.en.md'), 'a')
    const heard: string[] = []
    watch = watchFolder(dir, { changed: (paths) => heard.push(...paths), failed: () => {} })
    await watch.ready
    // the folder goes and a file takes its name, within one 25 ms batch (a checkout between branches can)
    await rm(join(dir, 'events', 'x'), { recursive: true })
    await writeFile(join(dir, 'events', 'x'), 'now a file')
    await new Promise((resolve) => setTimeout(resolve, 300))
    heard.length = 0
    await writeFile(join(dir, 'events', 'later.en.md'), 'later')
    await eventually(() => expect(heard).toContain('events/later.en.md'), 3_000)
    expect(stray.map((error) => (error as NodeJS.ErrnoException).code)).toEqual([])
  })
})
