import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openUsers } from '../../src/auth/users.ts'
import { createStore } from '../../src/content/store.ts'
import { createMemoryDriver } from '../../src/content/store/memory-driver.ts'
import { as, call, json, testApp, writableApp } from '../helpers.ts'

// No watcher runs here: this is the moment between an edit on disk and the watcher reporting it
// (a busy start on a large tree took seconds), when the store still holds the old text.
let app: Awaited<ReturnType<typeof writableApp>>
beforeEach(async () => {
  app = await writableApp('reference')
})
afterEach(async () => {
  await rm(app.dir, { recursive: true, force: true })
})

describe('a write over a file edited on disk but not yet read again', () => {
  it('is refused with 412, keeps the edit, and goes through when sent again', async () => {
    const file = join(app.content, 'events', 'summer-concert.en.md')
    const edited = (await readFile(file, 'utf8')).replace('title: Summer Concert', 'title: Edited On Disk')
    await writeFile(file, edited)
    const first = await call(app, 'events/7', json('PATCH', { excerpt: 'from the API' }, as('admin')))
    expect(first.status).toBe(412)
    expect(await readFile(file, 'utf8')).toBe(edited)
    const again = await call(app, 'events/7', json('PATCH', { excerpt: 'from the API' }, as('admin')))
    expect(again.status).toBe(200)
    expect(again.body.title).toBe('Edited On Disk')
    expect(await readFile(file, 'utf8')).toContain('excerpt: from the API')
  })
})

describe("a refused write racing an editor's save", () => {
  it('never writes its own earlier copy over the save, even one read while the save was half done', async () => {
    const path = 'events/race.en.md'
    const text = (title: string) =>
      `---\nid: 40\ntitle: ${title}\nslug: race\nstart_date: 2027-03-02 18:00:00\nend_date: 2027-03-02 21:00:00\n---\nBody\n`
    const memory = createMemoryDriver({ [path]: text('Before') })
    // The disk as the write sees it: the first look at the file finds it cut to nothing by an editor's save in
    // progress, every later one the save done.
    let halfDone = false
    const driver = new Proxy(memory, {
      get(target, key) {
        if (key === 'peek')
          return (asked: string) => {
            if (asked === path && halfDone) {
              halfDone = false
              return ''
            }
            return target.peek(asked)
          }
        const value = Reflect.get(target, key)
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
    const store = await createStore(driver, { defaultLanguage: 'en', fallback: true })
    const api = testApp(store, { users: openUsers(join(app.dir, 'users.yaml')) })
    await memory.write(path, text('Saved By The Editor'))
    halfDone = true
    const refused = await call(api, 'events/40', json('PATCH', { title: 'From The API' }, as('admin')))
    expect(refused.status).toBe(412)
    expect(memory.peek(path)).toBe(text('Saved By The Editor'))
  })
})
