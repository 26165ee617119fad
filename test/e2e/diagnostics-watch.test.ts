import { readFile, unlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkContent } from '../../src/content/check.ts'
import { as, call } from '../helpers.ts'
import { eventually } from '../content/trees.ts'
import { useWatchedApp, type WatchedApp } from './watched-app.ts'

let app: WatchedApp
useWatchedApp((started) => (app = started))

const file = (name: string) => join(app.content, 'events', name)
const EVENT = (id: number, title: string, end = '20') =>
  `---\nid: ${id}\ntitle: ${title}\nslug: ${title.toLowerCase().replace(/ /g, '-')}\nstart_date: 2026-12-20 18:00:00\nend_date: 2026-12-${end} 20:00:00\n---\nAbout ${title}.\n`
const diagnostics = async (): Promise<{ path: string; message: string }[]> =>
  (await call(app, 'diagnostics', { headers: as('editor') })).body.problems
const blamed = async () => (await diagnostics()).map((p) => p.path).sort()

describe('/diagnostics follows the files on disk', () => {
  it('forgets a broken file once it is deleted', async () => {
    await writeFile(file('broken.en.md'), EVENT(60, 'Broken', '19'))
    await eventually(async () => expect(await blamed()).toEqual(['content/events/broken.en.md']))
    await unlink(file('broken.en.md'))
    await eventually(async () => expect(await blamed()).toEqual([]))
  })

  it('forgets a file blamed for a duplicate id once the file that keeps the id is deleted, and serves it', async () => {
    await writeFile(file('zz-copy.en.md'), EVENT(8, 'Copy Of Meetup'))
    await eventually(async () => expect(await blamed()).toEqual(['content/events/zz-copy.en.md']))
    await unlink(file('plain-meetup.en.md'))
    await eventually(async () => expect((await call(app, 'events/8')).body.title).toBe('Copy Of Meetup'))
    expect(await blamed()).toEqual([])
  })

  it('forgets a file blamed for a duplicate id once that file is deleted', async () => {
    await writeFile(file('zz-copy.en.md'), EVENT(8, 'Copy Of Meetup'))
    await eventually(async () => expect(await blamed()).toEqual(['content/events/zz-copy.en.md']))
    await unlink(file('zz-copy.en.md'))
    await eventually(async () => expect(await blamed()).toEqual([]))
    expect((await call(app, 'events/8')).body.title).toBe('Plain Meetup')
  })

  it('forgets a file blamed for a slug once the file that holds the slug is deleted, and finds it by that slug', async () => {
    await writeFile(file('zz-twin.en.md'), EVENT(62, 'Twin').replace('slug: twin', 'slug: plain-meetup'))
    await eventually(async () => expect(await blamed()).toEqual(['content/events/zz-twin.en.md']))
    await unlink(file('plain-meetup.en.md'))
    await eventually(async () => expect((await call(app, 'events/by-slug/plain-meetup')).body.id).toBe(62))
    expect(await blamed()).toEqual([])
  })

  it('stops serving a record whose source file is deleted, as a restart would, and lists the translation left behind', async () => {
    await unlink(file('summer-concert.en.md'))
    await eventually(async () => expect((await call(app, 'events/7')).status).toBe(404))
    expect(await blamed()).toEqual(['content/events/summer-concert.ms.md'])
  })
})

describe('a file the tree cannot take by its name', () => {
  it('leaves /diagnostics once it is deleted', async () => {
    await writeFile(file('shouting.EN.md'), EVENT(66, 'Shouting'))
    await eventually(async () => expect(await blamed()).toEqual(['content/events/shouting.EN.md']))
    await unlink(file('shouting.EN.md'))
    await eventually(async () => expect(await blamed()).toEqual([]))
  })
})

describe('the order of /diagnostics', () => {
  it('is by path, then line, whatever order the files broke in, as a restart lists them', async () => {
    await writeFile(file('zz-late.en.md'), EVENT(63, 'Zed', '19'))
    await eventually(async () => expect(await blamed()).toEqual(['content/events/zz-late.en.md']))
    await writeFile(file('aa-later.en.md'), EVENT(64, 'Ay', '19'))
    await writeFile(file('Zed.en.md'), EVENT(65, 'Capital', '19'))
    await eventually(async () => expect((await diagnostics()).length).toBe(3))
    const listed = (await diagnostics()).map((p) => p.path)
    // by code unit, as almanac check prints them: capitals first, on every machine whatever its locale
    expect(listed).toEqual([
      'content/events/Zed.en.md',
      'content/events/aa-later.en.md',
      'content/events/zz-late.en.md',
    ])
    const restarted = (await checkContent(app.content, false)).problems.filter((p) => p.severity === 'error')
    expect(listed).toEqual(restarted.map((p) => `content/${p.path}`).sort())
  })
})

describe('a duplicate id', () => {
  it('is blamed on the same file by check and by /diagnostics: the later one in path order', async () => {
    // "a-copy" comes before "plain-meetup" in path order, so it keeps id 8 however the files arrived.
    const meetup = await readFile(file('plain-meetup.en.md'), 'utf8')
    await writeFile(file('a-copy.en.md'), EVENT(8, 'Copy Of Meetup'))
    await eventually(async () => expect((await diagnostics()).length).toBe(1))
    const { problems } = await checkContent(app.content, false)
    const fromCheck = problems.filter((p) => p.message.includes('id 8')).map((p) => `content/${p.path}`)
    expect(fromCheck).toEqual(['content/events/plain-meetup.en.md'])
    expect(await blamed()).toEqual(fromCheck)
    expect((await call(app, 'events/8')).body.title).toBe('Copy Of Meetup')
    expect(await readFile(file('plain-meetup.en.md'), 'utf8')).toBe(meetup)
  })
})

describe('ids the watcher gives', () => {
  it('are never the same for two new files of one batch, when one of them is broken', async () => {
    const idless = (title: string, end: string) => EVENT(1, title, end).replace('id: 1\n', '')
    await Promise.all([
      writeFile(file('a-broken.en.md'), idless('A Broken', '19')),
      writeFile(file('b-good.en.md'), idless('B Good', '20')),
    ])
    const idOf = async (name: string) => Number(/^id: (\d+)$/m.exec(await readFile(file(name), 'utf8'))?.[1])
    await eventually(async () => expect((await call(app, 'events/by-slug/b-good')).status).toBe(200))
    await eventually(async () => expect(await idOf('a-broken.en.md')).toBeGreaterThan(0))
    expect(await idOf('a-broken.en.md')).not.toBe(await idOf('b-good.en.md'))
    expect((await call(app, `events/${await idOf('b-good.en.md')}`)).body.title).toBe('B Good')
  })
})
