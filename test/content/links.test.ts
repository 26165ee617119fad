import { execFileSync } from 'node:child_process'
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, truncate, unlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildSite } from '../../src/prerender/site-builder.ts'
import { checkContent } from '../../src/content/check.ts'
import type { Store } from '../../src/content/store.ts'
import { watchContent } from '../../src/content/watch.ts'
import { call, buildOptions, testApp } from '../helpers.ts'
import { almanac, eventFile, eventually, loadStore, tempTree } from './trees.ts'

const SECRET = 'SECRET-PASSWORD-HASH-0xdeadbeef'
let tree: Awaited<ReturnType<typeof tempTree>>
let outside: string
beforeEach(async () => {
  tree = await tempTree()
  outside = join(tree.dir, 'outside')
  await mkdir(join(tree.dir, '.almanac'))
  await writeFile(join(tree.dir, '.almanac/users.yaml'), `admin:\n  hash: ${SECRET}\n`)
  await mkdir(outside)
  await cp(join(tree.content, 'media/6-poster.png'), join(outside, '5-outside.png'))
  await writeFile(join(outside, 'secret-event.md'), eventFile(990, `Outside ${SECRET}`))
})
afterEach(async () => {
  await tree.cleanup()
})

const appOf = (store: Store) => testApp(store)

/** Every file under a folder, as text. */
async function allText(dir: string): Promise<string> {
  const names = await readdir(dir, { recursive: true, withFileTypes: true })
  const files = names.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name))
  return (await Promise.all(files.map((f) => readFile(f, 'latin1')))).join('\n')
}

describe('symbolic links under content/media', () => {
  beforeEach(async () => {
    await symlink(join(tree.dir, '.almanac/users.yaml'), join(tree.content, 'media/99-users.png'))
    await symlink('6-poster.png', join(tree.content, 'media/7-inner.png'))
    await symlink(outside, join(tree.content, 'media/linked'))
  })

  it('are never served, and each is a problem with its path', async () => {
    const { store, problems } = await loadStore(tree.content)
    const app = appOf(store)
    for (const path of ['/media/99-users.png', '/media/7-inner.png', '/media/linked/5-outside.png']) {
      const response = await call(app, path)
      expect(response.status, path).toBe(404)
      expect(response.text).not.toContain(SECRET)
    }
    expect((await call(app, '/media/6-poster.png')).status).toBe(200)
    expect(problems.map((p) => p.path).sort()).toEqual(['media/7-inner.png', 'media/99-users.png', 'media/linked'])
    for (const problem of problems)
      expect(problem).toMatchObject({ line: 1, message: expect.stringMatching(/symbolic link/) })
  })

  it('are not served when a file becomes a link after loading', async () => {
    const { store } = await loadStore(tree.content)
    await unlink(join(tree.content, 'media/6-poster.png'))
    await symlink(join(tree.dir, '.almanac/users.yaml'), join(tree.content, 'media/6-poster.png'))
    const response = await call(appOf(store), '/media/6-poster.png')
    expect(response.status).toBe(404)
    expect(response.text).not.toContain(SECRET)
  })

  it('are never copied by the build', async () => {
    const { store } = await loadStore(tree.content)
    const out = await mkdtemp(join(tmpdir(), 'almanac-links-dist-'))
    try {
      await buildSite(buildOptions(store, out))
      expect((await readdir(join(out, 'media'), { recursive: true })).sort()).toEqual(['6-poster.png'])
      expect(await allText(out)).not.toContain(SECRET)
    } finally {
      await rm(out, { recursive: true, force: true })
    }
  })

  it('make `almanac check` report each link with its path and exit 1', async () => {
    const { problems } = await checkContent(tree.content, false)
    expect(
      problems
        .filter((p) => p.path.startsWith('media/'))
        .map((p) => p.path)
        .sort(),
    ).toEqual(['media/7-inner.png', 'media/99-users.png', 'media/linked'])
    const result = await almanac(['check'], tree.dir)
    expect(result.code).toBe(1)
    expect(result.stdout).toContain('content/media/99-users.png:1: ')
  })
})

describe('a media file too big to be an image of a calendar', () => {
  it('is a problem and is never read, served or built', async () => {
    await writeFile(join(tree.content, 'media/9-huge.png'), '')
    await truncate(join(tree.content, 'media/9-huge.png'), 60 * 1024 * 1024)
    const { store, problems } = await loadStore(tree.content)
    expect(problems).toEqual([{ path: 'media/9-huge.png', line: 1, message: expect.stringMatching(/larger than/) }])
    expect((await call(appOf(store), '/media/9-huge.png')).status).toBe(404)
  })
})

describe('content files that are symbolic links', () => {
  beforeEach(async () => {
    await symlink('/etc/passwd', join(tree.content, 'events/passwd.en.md'))
    await symlink(join(tree.dir, '.almanac/users.yaml'), join(tree.content, 'events/users.en.md'))
    await symlink(join(outside, 'secret-event.md'), join(tree.content, 'events/outside.en.md'))
    await rm(join(tree.content, 'tags'), { recursive: true })
    await mkdir(join(outside, 'tags'))
    await writeFile(join(outside, 'tags/linked.en.md'), `---\nid: 77\nname: ${SECRET}\nslug: linked\n---\n`)
    await symlink(join(outside, 'tags'), join(tree.content, 'tags'))
  })

  it('are never read: each is a problem with its path, and nothing of theirs is served', async () => {
    const { store, problems } = await loadStore(tree.content)
    expect(store.get('events', 990)).toBeUndefined()
    expect(store.get('tags', 77)).toBeUndefined()
    expect(problems.map((p) => p.path).sort()).toEqual([
      'events/outside.en.md',
      'events/passwd.en.md',
      'events/users.en.md',
      'tags',
    ])
    for (const problem of problems)
      expect(problem).toMatchObject({ line: 1, message: expect.stringMatching(/symbolic link/) })
    const app = appOf(store)
    for (const path of ['events', 'events?search=outside', 'tags'])
      expect((await call(app, path)).text).not.toContain(SECRET)
  })

  it('are not read when they appear while the server runs', async () => {
    const { store } = await loadStore(tree.content)
    const watching = watchContent(store)
    try {
      await watching.ready
      await symlink(join(outside, 'secret-event.md'), join(tree.content, 'events/later.en.md'))
      await writeFile(join(tree.content, 'events/marker.en.md'), eventFile(991, 'Marker'))
      await eventually(() => expect(store.get('events', 991)).toBeDefined())
      await eventually(() => expect(store.problems().map((p) => p.path)).toContain('events/later.en.md'))
      expect(store.get('events', 990)).toBeUndefined()
      // A file replaced by a link is dropped, not followed.
      await unlink(join(tree.content, 'events/plain-meetup.en.md'))
      await symlink(join(outside, 'secret-event.md'), join(tree.content, 'events/plain-meetup.en.md'))
      await eventually(() => expect(store.get('events', 8)).toBeUndefined())
      expect(store.get('events', 990)).toBeUndefined()
    } finally {
      await watching.close()
    }
  })

  it('never block the load on a FIFO or read a folder named like a record', async () => {
    execFileSync('mkfifo', [join(tree.content, 'events/pipe.en.md')])
    await mkdir(join(tree.content, 'events/folder.en.md'))
    const { store, problems } = await loadStore(tree.content)
    expect(store.get('events', 8)).toBeDefined()
    expect(problems.filter((p) => p.path === 'events/pipe.en.md' || p.path === 'events/folder.en.md')).toEqual([
      { path: 'events/folder.en.md', line: 1, message: expect.stringMatching(/not a regular file/) },
      { path: 'events/pipe.en.md', line: 1, message: expect.stringMatching(/not a regular file/) },
    ])
  }, 10_000)

  it('make `almanac check` exit 1 naming each link', async () => {
    const result = await almanac(['check'], tree.dir)
    expect(result.code).toBe(1)
    for (const path of ['events/outside.en.md', 'events/passwd.en.md', 'events/users.en.md', 'tags'])
      expect(result.stdout).toContain(`content/${path}:1: `)
    expect(result.stdout).not.toContain(SECRET)
  })
})
