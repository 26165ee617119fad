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

// The disk is checked once as a write is planned; the temporary file's write and flush come after. An editor's save
// landing in between was overwritten by the accepted write (7 of 136 racing tries in a review, `If-Match` or not).
// Each file is now read again just before it is replaced or removed.
describe("an editor's save landing while a write is under way", () => {
  const treeBytes = async (content: string) => {
    const { readdir } = await import('node:fs/promises')
    const bytes: Record<string, string> = {}
    for (const kind of await readdir(content))
      for (const name of await readdir(join(content, kind)).catch(() => []))
        bytes[`${kind}/${name}`] = await readFile(join(content, kind, name), 'utf8')
    return bytes
  }
  /** A store over the app's folder whose driver saves `edit` over a file just as the write of `path` begins. */
  async function racing(path: string, edit: (text: string) => string) {
    const { createDiskDriver } = await import('../../src/content/store/disk-driver.ts')
    const disk = createDiskDriver(app.content)
    let armed = true
    const land = async (asked: string) => {
      if (!armed || asked !== path) return
      armed = false
      const file = join(app.content, path)
      await writeFile(file, edit(await readFile(file, 'utf8')))
    }
    const driver = {
      ...disk,
      write: async (asked: string, text: string, expected?: string | null) => {
        await land(asked)
        return disk.write(asked, text, expected)
      },
      remove: async (asked: string, expected?: string | null) => {
        await land(asked)
        return disk.remove(asked, expected)
      },
    }
    const store = await createStore(driver, { defaultLanguage: 'en', fallback: true })
    return testApp(store, { users: openUsers(join(app.dir, 'users.yaml')) })
  }

  it('is kept: the write is refused with 412 and the rest of the tree is as it was', async () => {
    const path = 'events/summer-concert.en.md'
    const api = await racing(path, (text) => text.replace('title: Summer Concert', 'title: Saved Meanwhile'))
    const before = await treeBytes(app.content)
    const refused = await call(api, 'events/7', json('PATCH', { excerpt: 'from the API' }, as('admin')))
    expect(refused.status).toBe(412)
    const after = await treeBytes(app.content)
    expect(after[path]).toContain('title: Saved Meanwhile')
    expect(after[path]).not.toContain('from the API')
    expect({ ...after, [path]: before[path] }).toEqual(before)
    const again = await call(api, 'events/7', json('PATCH', { excerpt: 'from the API' }, as('admin')))
    expect(again.status).toBe(200)
    expect(again.body.title).toBe('Saved Meanwhile')
  })

  it('is kept when the write would have removed the file', async () => {
    const path = 'events/summer-concert.ms.md'
    const api = await racing(path, (text) => `${text}\nSaved meanwhile.\n`)
    const before = await treeBytes(app.content)
    const refused = await call(api, 'events/7?force=true', { method: 'DELETE', headers: as('admin') })
    expect(refused.status).toBe(412)
    const after = await treeBytes(app.content)
    expect(after[path]).toContain('Saved meanwhile.')
    expect({ ...after, [path]: before[path] }).toEqual(before)
  })
})

// A transaction refused part way puts back every file it wrote. When one put-back was itself refused (an editor had
// made that file again meanwhile), the undo stopped there: the files after it stayed as the refused write left them.
describe('an undo whose put-back of one file finds an editor there', () => {
  it('still puts back every other file, and keeps the editor’s', async () => {
    const file = (lang: string, more = '') =>
      lang === 'en'
        ? `---\nid: 40\ntitle: Race\nslug: race\nstart_date: 2027-03-02 18:00:00\nend_date: 2027-03-02 21:00:00\n---\nBody${more}\n`
        : `---\ntitle: Race ${lang}\n---\nBody ${lang}${more}\n`
    const paths = ['en', 'ms', 'ta'].map((lang) => `events/race.${lang}.md`)
    const memory = createMemoryDriver(Object.fromEntries(paths.map((path, i) => [path, file(['en', 'ms', 'ta'][i]!)])))
    // The editor saves the Tamil file just as the write removes it (412), and makes the English file again just
    // before the undo would put it back.
    const driver = new Proxy(memory, {
      get(target, key) {
        if (key === 'remove')
          return async (path: string, expected?: string | null) => {
            if (path === paths[2]) await target.write(path, file('ta', ' (the editor’s)'))
            return target.remove(path, expected)
          }
        if (key === 'write')
          return async (path: string, text: string, expected?: string | null) => {
            if (path === paths[0] && expected === null) await target.write(path, file('en', ' (the editor’s)'))
            return target.write(path, text, expected)
          }
        const value = Reflect.get(target, key)
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
    const store = await createStore(driver, { defaultLanguage: 'en', fallback: true })
    const api = testApp(store, { users: openUsers(join(app.dir, 'users.yaml')) })
    const refused = await call(api, 'events/40?force=true', { method: 'DELETE', headers: as('admin') })
    expect(refused.status).toBe(412)
    expect(memory.peek(paths[0]!)).toBe(file('en', ' (the editor’s)'))
    expect(memory.peek(paths[1]!)).toBe(file('ms'))
    expect(memory.peek(paths[2]!)).toBe(file('ta', ' (the editor’s)'))
  })
})
