import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { as, call, json, writableApp } from '../helpers.ts'

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
