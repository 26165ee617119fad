import { utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { eventFile, eventually, loadStore, useWatchedTrees } from './trees.ts'

// A record without `date`, outside git, is dated by its file's mtime. A `touch` (or a save that changed nothing)
// moves the mtime and not the text: the running server read the file again, found the text it had, and kept the
// old date until a restart gave the new one.

const trees = useWatchedTrees()

describe('an undated file touched while the server runs', () => {
  it('takes its new mtime as its date, as a restart would', async () => {
    const tree = await trees.tree()
    const file = join(tree.content, 'events', 'touched.en.md')
    await writeFile(file, eventFile(710, 'Touched Later'))
    const first = new Date('2026-03-01T10:00:00Z')
    await utimes(file, first, first)
    const { store } = await trees.watched(tree.content)
    expect(store.get('events', 710)?.source.undatedMs).toBe(first.getTime())
    const later = new Date('2026-06-15T08:30:00Z')
    await utimes(file, later, later)
    await eventually(() => expect(store.get('events', 710)?.source.undatedMs).toBe(later.getTime()))
    const restarted = await loadStore(tree.content)
    expect(restarted.store.get('events', 710)?.source.undatedMs).toBe(later.getTime())
  })

  it('settles nothing when the file touched shows no date: a translation, a category', async () => {
    const tree = await trees.tree()
    const { store } = await trees.watched(tree.content)
    const version = store.version
    const { readdir } = await import('node:fs/promises')
    const touched = [
      ...(await readdir(join(tree.content, 'categories'))).map((name) => join(tree.content, 'categories', name)),
      join(tree.content, 'events', 'summer-concert.ms.md'),
    ]
    const later = new Date('2026-06-15T08:30:00Z')
    for (const file of touched) await utimes(file, later, later)
    await new Promise((resolve) => setTimeout(resolve, 800))
    expect(store.version).toBe(version)
  })
})
