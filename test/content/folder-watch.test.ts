import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { watchFolder, type FolderWatch } from '../../src/content/store/disk-watch.ts'
import { eventually } from './trees.ts'

let dir: string
let watch: FolderWatch | undefined
afterEach(async () => {
  await watch?.close()
  watch = undefined
  await rm(dir, { recursive: true, force: true })
})

/** A tree of `files` events in `events/`, a few venues, a nested folder and a hidden one. */
async function tree(files: number) {
  dir = await mkdtemp(join(tmpdir(), 'almanac-watch-'))
  for (const folder of ['events', 'events/2026', 'venues', '.git']) await mkdir(join(dir, folder))
  const names = Array.from({ length: files }, (_, i) => `events/event-${i}.en.md`)
  await Promise.all([...names, 'venues/hall.en.md', 'events/2026/fair.en.md'].map((n) => writeFile(join(dir, n), 'x')))
}

function start() {
  const heard: string[] = []
  watch = watchFolder(dir, { changed: (paths) => heard.push(...paths), failed: (error) => heard.push(String(error)) })
  return heard
}

describe('the content folder watch', () => {
  it('holds one watch per folder, however many files the folders hold', async () => {
    await tree(2_000)
    start()
    // The root, events, events/2026 and venues; `.git` is not content.
    expect(await watch!.watches).toBe(4)
  })

  it('reports files added, changed and removed, in folders made after it started too, and not dotfiles', async () => {
    await tree(3)
    const heard = start()
    await watch!.ready
    await writeFile(join(dir, 'events', 'event-1.en.md'), 'changed')
    await writeFile(join(dir, 'events', '.event-1.en.md.swp'), 'temporary')
    await eventually(() => expect(heard).toContain('events/event-1.en.md'))
    await mkdir(join(dir, 'events', '2027'))
    await eventually(() => expect(heard).toContain('events/2027'))
    await writeFile(join(dir, 'events', '2027', 'parade.en.md'), 'new')
    await eventually(() => expect(heard).toContain('events/2027/parade.en.md'))
    await rm(join(dir, 'venues', 'hall.en.md'))
    await eventually(() => expect(heard).toContain('venues/hall.en.md'))
    expect(heard.filter((path) => path.includes('.swp'))).toEqual([])
  })
})
