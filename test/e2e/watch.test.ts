import { execFileSync } from 'node:child_process'
import { readFile, rename, unlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../src/app.ts'
import { createStore } from '../../src/content/store.ts'
import { as, call, json, SAMPLE_NOW, testSite } from '../helpers.ts'
import { eventually } from '../content/trees.ts'
import { useWatchedApp, type WatchedApp } from './watched-app.ts'

let app: WatchedApp
let changes: number
useWatchedApp((started) => {
  app = started
  changes = 0
  app.store.onChange(() => changes++)
})

const file = (name: string) => join(app.content, 'events', name)
const EVENT = (id: number | null, title: string) =>
  `---\n${id ? `id: ${id}\n` : ''}title: ${title}\nslug: ${title.toLowerCase().replace(/ /g, '-')}\nstart_date: 2026-12-20 18:00:00\nend_date: 2026-12-20 20:00:00\ntags: [3]\n---\nAbout ${title}.\n`

describe('edits made outside the server', () => {
  it('serves a new file, an edit, a rename and a delete, with search and term counts following', async () => {
    await writeFile(file('lantern-walk.en.md'), EVENT(40, 'Lantern Walk'))
    await eventually(async () => expect((await call(app, 'events/40')).body.title).toBe('Lantern Walk'))
    expect((await call(app, 'events?search=lantern')).body.total).toBe(1)
    expect((await call(app, 'tags/3')).body.count).toBe(3)
    await writeFile(file('lantern-walk.en.md'), EVENT(40, 'Lantern Parade'))
    await eventually(async () => expect((await call(app, 'events/40')).body.title).toBe('Lantern Parade'))
    expect((await call(app, 'events?search=walk')).body.total).toBe(0)
    await rename(file('lantern-walk.en.md'), file('parade.en.md'))
    await eventually(async () => expect((await call(app, 'events/by-slug/lantern-parade')).body.id).toBe(40))
    await unlink(file('parade.en.md'))
    await eventually(async () => expect((await call(app, 'events/40')).status).toBe(404))
    expect((await call(app, 'tags/3')).body.count).toBe(2)
  })

  it('follows an editor’s atomic save through a temporary file', async () => {
    await writeFile(file('.plain-meetup.en.md.swp'), EVENT(8, 'Saved Atomically'))
    await rename(file('.plain-meetup.en.md.swp'), file('plain-meetup.en.md'))
    await eventually(async () => expect((await call(app, 'events/8')).body.title).toBe('Saved Atomically'))
    expect(app.store.problems()).toEqual([])
  })

  it('keeps the last good version of a file that breaks, lists it for editors, and clears it when fixed', async () => {
    const good = await readFile(file('plain-meetup.en.md'), 'utf8')
    await writeFile(file('plain-meetup.en.md'), good.replace('title: Plain Meetup', 'title: a: b'))
    await eventually(async () => expect((await call(app, 'diagnostics', { headers: as('editor') })).body.total).toBe(1))
    const { body } = await call(app, 'diagnostics', { headers: as('editor') })
    expect(body.problems[0]).toMatchObject({ path: 'content/events/plain-meetup.en.md', line: 3 })
    expect((await call(app, 'events/8')).body.title).toBe('Plain Meetup')
    expect((await call(app, 'diagnostics')).status).toBe(401)
    expect((await call(app, 'diagnostics', { headers: as('author') })).status).toBe(403)
    await writeFile(file('plain-meetup.en.md'), good.replace('title: Plain Meetup', 'title: Plain Meetup, fixed'))
    await eventually(async () => expect((await call(app, 'events/8')).body.title).toBe('Plain Meetup, fixed'))
    expect((await call(app, 'diagnostics', { headers: as('editor') })).body.total).toBe(0)
  })

  it('gives a source written without an id the next free id, adding only that line', async () => {
    await writeFile(file('no-id.en.md'), EVENT(null, 'No Id'))
    await eventually(async () => expect((await call(app, 'events/by-slug/no-id')).status).toBe(200))
    const { body } = await call(app, 'events/by-slug/no-id')
    expect(body.id).toBe(17)
    expect(await readFile(file('no-id.en.md'), 'utf8')).toBe(`---\nid: 17\n${EVENT(null, 'No Id').slice(4)}`)
  })

  it('serves an image added to content/media, and describes it on the event that names it', async () => {
    const poster = await readFile(join(app.content, 'media/6-poster.png'))
    await writeFile(join(app.content, 'media/77-new-poster.png'), poster)
    await eventually(async () => expect((await call(app, '/media/77-new-poster.png')).status).toBe(200))
    const response = await call(app, 'events/8', json('PATCH', { image: 77 }, as('admin')))
    expect(response.body.image).toMatchObject({ id: 77, width: 320, height: 200 })
  })

  it('never adds an id to a file that is still being written', async () => {
    const whole = EVENT(41, 'Written In Two Parts')
    await writeFile(file('two-parts.en.md'), whole.slice(0, 4))
    await new Promise((resolve) => setTimeout(resolve, 60))
    await writeFile(file('two-parts.en.md'), whole)
    await eventually(async () => expect((await call(app, 'events/41')).body.title).toBe('Written In Two Parts'))
    expect(await readFile(file('two-parts.en.md'), 'utf8')).toBe(whole)
  })

  it('does not process the server’s own writes a second time', async () => {
    await call(app, 'events/8', json('PATCH', { title: 'Written Once' }, as('admin')))
    expect(changes).toBe(1)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(changes).toBe(1)
  })
})

describe('a git checkout of another branch', () => {
  it('leaves the API equal to a fresh start on the same tree', async () => {
    const git = (...args: string[]) => execFileSync('git', ['-C', app.content, ...args], { stdio: 'pipe' })
    git('init', '-q', '-b', 'main')
    git('-c', 'user.email=t@example.org', '-c', 'user.name=t', 'commit', '-qam', 'start', '--allow-empty')
    git('add', '-A')
    git('-c', 'user.email=t@example.org', '-c', 'user.name=t', 'commit', '-qm', 'tree')
    git('checkout', '-q', '-b', 'season')
    for (let i = 0; i < 30; i++) await writeFile(file(`season-${i}.en.md`), EVENT(100 + i, `Season Event ${i}`))
    await writeFile(file('plain-meetup.en.md'), EVENT(8, 'Renamed On A Branch'))
    await unlink(file('workshop-four.en.md'))
    await unlink(file('summer-concert.ms.md'))
    git('add', '-A')
    git('-c', 'user.email=t@example.org', '-c', 'user.name=t', 'commit', '-qm', 'season')
    git('checkout', '-q', 'main')
    await eventually(async () => expect((await call(app, 'events/100')).status).toBe(404))
    git('checkout', '-q', 'season')
    // 6 listed on main (7, 8, 9, 10, 11, 16) + 30 new − event 10, deleted on the branch.
    await eventually(async () => expect((await call(app, 'events?per_page=50')).body.total).toBe(35))

    const fresh = createApp({
      store: await createStore(app.content, { defaultLanguage: 'en', fallback: true }),
      site: testSite(),
      perPage: 9,
      maxPerPage: 50,
      fallback: true,
      now: () => SAMPLE_NOW,
    })
    // A checkout's file events may come in several batches: wait until the last one is applied.
    for (const path of [
      'events?per_page=50',
      'events?ml_language=ms&per_page=50',
      'events/8',
      'events/7?ml_language=ms',
      'events/10',
      'tags',
      'categories',
      'events?search=season&per_page=50',
    ]) {
      const expected = (await call(fresh, path)).text
      await eventually(async () => expect((await call(app, path)).text, path).toBe(expected))
    }
  })
})
