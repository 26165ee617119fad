import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { checkContent } from '../../src/content/check.ts'
import { watchContent } from '../../src/content/watch.ts'
import { call, writableApp } from '../helpers.ts'
import { reloadApp } from '../routes/writes-tree.ts'
import { eventFile, eventually, loadStore, tempTree } from './trees.ts'

const README = '# Events\n\nOne file per event; see the project README for the fields.\n'

let tree: Awaited<ReturnType<typeof tempTree>>
beforeEach(async () => {
  tree = await tempTree()
})
afterEach(async () => {
  await tree.cleanup()
})

describe('a README.md that explains a content folder', () => {
  it('is no record: check, --fix and the store leave it alone and say nothing of it', async () => {
    for (const kind of ['events', 'venues']) await writeFile(join(tree.content, kind, 'README.md'), README)
    await writeFile(join(tree.content, 'events/Readme.md'), README)
    const { problems, fixed } = await checkContent(tree.content, true)
    expect(problems.filter((p) => /readme/i.test(p.path))).toEqual([])
    expect(fixed.filter((path) => /readme/i.test(path))).toEqual([])
    expect(await readFile(join(tree.content, 'events/README.md'), 'utf8')).toBe(README)
    const { store, problems: logged } = await loadStore(tree.content, true)
    expect(store.problems().filter((p) => /readme/i.test(p.path))).toEqual([])
    expect(logged.filter((p) => /readme/i.test(p.path))).toEqual([])
  })

  it('is left alone when it arrives while the server watches', async () => {
    const { store } = await loadStore(tree.content, true)
    const watching = watchContent(store)
    try {
      await watching.ready
      await writeFile(join(tree.content, 'events/README.md'), README)
      await writeFile(join(tree.content, 'events/after-readme.en.md'), eventFile(77, 'After Readme'))
      await eventually(() => expect(store.list('events').some((record) => record.id === 77)).toBe(true))
      expect(store.problems().filter((p) => /readme/i.test(p.path))).toEqual([])
      expect(await readFile(join(tree.content, 'events/README.md'), 'utf8')).toBe(README)
    } finally {
      await watching.close()
    }
  })
})

describe('a hidden Markdown file in a kind folder', () => {
  const HIDDEN = ['.draft.en.md', '._mac.en.md', '.#lock.en.md']

  it('is no record at start, and check warns of it without failing', async () => {
    for (const [i, name] of HIDDEN.entries())
      await writeFile(join(tree.content, 'events', name), eventFile(90 + i, 'X'))
    const { store, problems: logged } = await loadStore(tree.content)
    expect(HIDDEN.map((_, i) => store.get('events', 90 + i))).toEqual([undefined, undefined, undefined])
    expect(logged.filter((p) => p.path.includes('/.'))).toEqual([])
    const { problems } = await checkContent(tree.content, false)
    expect(problems.filter((p) => p.path.includes('/.')).map((p) => [p.path, p.severity])).toEqual(
      HIDDEN.map((name) => [`events/${name}`, 'warning']).sort(),
    )
  })

  it('is no record when it arrives while the server watches, nor when the tree is compared', async () => {
    const { store } = await loadStore(tree.content)
    const watching = watchContent(store)
    try {
      await watching.ready
      for (const [i, name] of HIDDEN.entries())
        await writeFile(join(tree.content, 'events', name), eventFile(90 + i, 'X'))
      await writeFile(join(tree.content, 'events/after-hidden.en.md'), eventFile(77, 'After Hidden'))
      await eventually(() => expect(store.get('events', 77)).toBeDefined())
      await store.reconcile()
      await store.reload(HIDDEN.map((name) => `events/${name}`))
      expect(HIDDEN.map((_, i) => store.get('events', 90 + i))).toEqual([undefined, undefined, undefined])
      expect(store.problems().filter((p) => p.path.includes('/.'))).toEqual([])
    } finally {
      await watching.close()
    }
  })
})

describe('a hidden file in media/', () => {
  it('is not the library’s at start nor after a change, so it is never served', async () => {
    const app = await writableApp('reference')
    try {
      const poster = await readFile(join(app.content, 'media', '6-poster.png'))
      await writeFile(join(app.content, 'media', '._6-poster.png'), poster)
      await mkdir(join(app.content, 'media', '.hidden'))
      await writeFile(join(app.content, 'media', '.hidden', '7-secret.png'), poster)
      await app.store.reload(['media/'])
      const started = await reloadApp(app.content)
      for (const served of [app, started]) {
        for (const path of ['/media/._6-poster.png', '/media/.hidden/7-secret.png'])
          expect((await call(served, path)).status, path).toBe(404)
        expect((await call(served, '/media/6-poster.png')).status).toBe(200)
      }
      expect(started.problems.filter((p) => p.path.includes('/.'))).toEqual([])
    } finally {
      await rm(app.dir, { recursive: true, force: true })
    }
  })
})
