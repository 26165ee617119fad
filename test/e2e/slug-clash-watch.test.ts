import { unlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { as, call } from '../helpers.ts'
import { dupSlug, MS_TWIN, served, servedWithErrors } from '../content/slug-clash-trees.ts'
import { eventFile, eventually, loadStore } from '../content/trees.ts'
import { useWatchedApp, type WatchedApp } from './watched-app.ts'

let app: WatchedApp
useWatchedApp((started) => (app = started))

const file = (name: string) => join(app.content, 'events', name)
const blamed = async () =>
  ((await call(app, 'diagnostics', { headers: as('editor') })).body.problems as { path: string }[])
    .map((p) => p.path)
    .sort()
const status = async (path: string) => (await call(app, path)).status

describe('a file that loses a slug clash, through the watcher', () => {
  it('is left out when it arrives later in path order, and served once the winner goes', async () => {
    await writeFile(file('zzz-dupslug.en.md'), dupSlug(9100, 'Zzz Dup'))
    await eventually(async () => expect(await blamed()).toEqual(['content/events/zzz-dupslug.en.md']))
    expect(await status('events/9100')).toBe(404)
    expect((await call(app, 'events/by-slug/plain-meetup')).body.id).toBe(8)
    await unlink(file('plain-meetup.en.md'))
    await eventually(async () => expect(await status('events/9100')).toBe(200))
    expect(await blamed()).toEqual([])
  })

  it('leaves out the record that held the slug when a file earlier in path order arrives, and serves it again when that file goes', async () => {
    await writeFile(file('a-first.en.md'), dupSlug(9102, 'A First'))
    await eventually(async () => expect(await status('events/8')).toBe(404))
    expect(await blamed()).toEqual(['content/events/plain-meetup.en.md'])
    expect((await call(app, 'events/by-slug/plain-meetup')).body.id).toBe(9102)
    await unlink(file('a-first.en.md'))
    await eventually(async () => expect(await status('events/8')).toBe(200))
    expect(await blamed()).toEqual([])
  })

  it('falls back in the language of a losing translation, and serves the translation once it no longer clashes', async () => {
    await writeFile(file('zzz-twin.en.md'), eventFile(9101, 'Zzz Twin'))
    await writeFile(file('zzz-twin.ms.md'), MS_TWIN)
    await eventually(async () => expect(await blamed()).toEqual(['content/events/zzz-twin.ms.md']))
    const ms = async () => (await call(app, '/ms/wp-json/calendar/events/v1/events/9101')).body
    await eventually(async () => expect((await ms()).title).toBe('Zzz Twin'))
    await writeFile(file('zzz-twin.ms.md'), MS_TWIN.replace('konsert-musim-panas', 'kembar'))
    await eventually(async () => expect((await ms()).title).toBe('Kembar'))
    expect(await blamed()).toEqual([])
  })

  it('serves after a series of changes exactly what a restart over the same files serves', async () => {
    await writeFile(file('zzz-dupslug.en.md'), dupSlug(9100, 'Zzz Dup'))
    await writeFile(file('zzz-twin.en.md'), eventFile(9101, 'Zzz Twin'))
    await writeFile(file('zzz-twin.ms.md'), MS_TWIN)
    await eventually(async () => expect(await blamed()).toHaveLength(2))
    expect(servedWithErrors(app.store)).toEqual([])
    await writeFile(file('a-first.en.md'), dupSlug(9102, 'A First'))
    await eventually(async () => expect(await blamed()).toHaveLength(3))
    await writeFile(file('summer-concert.ms.md'), MS_TWIN.replace('konsert-musim-panas', 'konsert'))
    await eventually(async () => expect(await blamed()).toHaveLength(2))
    await unlink(file('a-first.en.md'))
    await eventually(async () => expect(await status('events/8')).toBe(200))
    await eventually(async () => expect(served(app.store)).toEqual(served((await loadStore(app.content)).store)))
    expect(servedWithErrors(app.store)).toEqual([])
  })
})
