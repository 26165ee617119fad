import { cp, mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Store } from '../../src/content/store.ts'
import { eventFile, eventually, useWatchedTrees } from './trees.ts'

// The watcher was given the content folder once. Moved away and back (`mv content x; mv x content`), the folder
// lost every watch (chokidar drops them all once the folder it was given goes) and the server served an empty
// calendar until restarted; a link to it pointed elsewhere on a deploy (`content -> releases/42`) kept the old
// folder watched and the old records served; a kind folder swapped for a link kept its records served from memory,
// where a fresh start refuses the folder. The watcher now looks at the folder itself every second.

const trees = useWatchedTrees()
const watched = trees.watched

const titled = (store: Store, id: number) => store.get('events', id)?.source.data.title
const events = (store: Store) => store.list('events').length

describe('the content folder itself replaced while the server runs', () => {
  it('moved away and back: the records come back and later edits are heard', async () => {
    const tree = await trees.tree()
    const { store } = await watched(tree.content)
    const before = events(store)
    expect(before).toBeGreaterThan(0)
    await rename(tree.content, `${tree.content}.away`)
    await eventually(() => expect(events(store)).toBe(0))
    await rename(`${tree.content}.away`, tree.content)
    await eventually(() => expect(events(store)).toBe(before))
    await writeFile(join(tree.content, 'events', 'later.en.md'), eventFile(700, 'Heard Later'))
    await eventually(() => expect(titled(store, 700)).toBe('Heard Later'))
  })

  it('moved away and back within a second: the watch that died with it is started again', async () => {
    const tree = await trees.tree()
    const { store } = await watched(tree.content)
    await rename(tree.content, `${tree.content}.away`)
    // long enough for the watcher to hear its folder go, and most often shorter than the time between two looks:
    // the folder is then the same one (device and inode) with no watch left on it
    await new Promise((resolve) => setTimeout(resolve, 300))
    await rename(`${tree.content}.away`, tree.content)
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    await writeFile(join(tree.content, 'events', 'later.en.md'), eventFile(701, 'Heard Again'))
    await eventually(() => expect(titled(store, 701)).toBe('Heard Again'))
  })

  it('a link re-pointed to another tree: that tree is served and watched, the old one no more', async () => {
    const tree = await trees.tree()
    const [a, b, link] = ['a', 'b', 'site'].map((name) => join(tree.dir, name))
    await rename(tree.content, a!)
    await cp(a!, b!, { recursive: true })
    await writeFile(join(b!, 'events', 'only-in-b.en.md'), eventFile(702, 'Only In B'))
    await symlink(a!, link!)
    const { store } = await watched(link!)
    expect(titled(store, 702)).toBeUndefined()
    // as a deploy swaps it: a new link renamed over the old one
    await symlink(b!, `${link}.new`)
    await rename(`${link}.new`, link!)
    await eventually(() => expect(titled(store, 702)).toBe('Only In B'))
    await writeFile(join(a!, 'events', 'old-tree.en.md'), eventFile(703, 'Old Tree'))
    await writeFile(join(b!, 'events', 'new-tree.en.md'), eventFile(704, 'New Tree'))
    await eventually(() => expect(titled(store, 704)).toBe('New Tree'))
    expect(titled(store, 703)).toBeUndefined()
  })
})

describe('a content link pointed at a wider folder and back', () => {
  it('forgets the problems of files heard there once the link is back, as a restart would not tell them', async () => {
    const tree = await trees.tree()
    const [site, link, wide] = ['site', 'content-link', 'wide'].map((name) => join(tree.dir, name))
    await rename(tree.content, site!)
    await mkdir(join(wide!, 'notes'), { recursive: true })
    await symlink(site!, link!)
    const { store } = await watched(link!)
    const paths = () => store.problems().map((problem) => problem.path)
    expect(paths()).toEqual([])
    await symlink(wide!, `${link}.new`)
    await rename(`${link}.new`, link!)
    await eventually(() => expect(events(store)).toBe(0))
    // Written while the wide folder is watched: heard, and told as a file the tree cannot take by its name. Written
    // again every half second, as the new watch may not be ready yet on a busy machine.
    let written = 0
    await eventually(async () => {
      if (Date.now() - written > 500) {
        written = Date.now()
        await writeFile(join(wide!, 'notes', 'todo.md'), `# not a record ${written}\n`)
      }
      expect(paths()).toContain('notes/todo.md')
    }, 10_000)
    await symlink(site!, `${link}.new`)
    await rename(`${link}.new`, link!)
    await eventually(() => expect(events(store)).toBeGreaterThan(0), 10_000)
    await eventually(() => expect(paths()).toEqual([]), 10_000)
  })
})

/** Every file under a folder made an hour old: a file younger than two seconds is compared by its text, not its stamp. */
async function aged(folder: string) {
  const { readdir, utimes } = await import('node:fs/promises')
  const hourAgo = new Date(Date.now() - 3_600_000)
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) await utimes(join(entry.parentPath, entry.name), hourAgo, hourAgo)
}

describe('a content link pointed into a loop', () => {
  it('serves nothing and blames no file, and the tree is served again once the link is put back', async () => {
    const tree = await trees.tree()
    const [site, link, loop] = ['site', 'content-link', 'loop'].map((name) => join(tree.dir, name))
    await rename(tree.content, site!)
    await symlink(site!, link!)
    const { store, problems } = await watched(link!)
    const before = events(store)
    problems.length = 0
    await symlink(link!, loop!)
    await symlink(loop!, `${link}.new`)
    await rename(`${link}.new`, link!) // content-link -> loop -> content-link
    await eventually(() => expect(events(store)).toBe(0))
    expect(problems.map((problem) => problem.message)).toEqual([])
    await symlink(site!, `${link}.new`)
    await rename(`${link}.new`, link!)
    await eventually(() => expect(events(store)).toBe(before))
  })
})

describe('a kind folder swapped for a link while the server runs', () => {
  it('is refused as a start refuses it, and served again once it is a folder', async () => {
    const tree = await trees.tree()
    // aged: put back, its files must be read again for what they are, not passed over as the files last stamped
    await aged(tree.content)
    const { store, problems } = await watched(tree.content)
    const before = events(store)
    const elsewhere = join(tree.dir, 'elsewhere')
    await mkdir(elsewhere)
    await writeFile(join(elsewhere, 'planted.en.md'), eventFile(705, 'Planted Outside'))
    const folder = join(tree.content, 'events')
    await rename(folder, `${folder}.real`)
    await symlink(elsewhere, folder)
    await eventually(() => expect(events(store)).toBe(0))
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(titled(store, 705)).toBeUndefined()
    const told = problems.filter((problem) => problem.path.startsWith('events'))
    expect(told.map((problem) => problem.path)).toEqual(['events'])
    expect(store.problems().map((problem) => problem.path)).toContain('events')
    await rm(folder)
    await rename(`${folder}.real`, folder)
    await eventually(() => expect(events(store)).toBe(before))
    expect(store.problems().map((problem) => problem.path)).not.toContain('events')
  })
})
