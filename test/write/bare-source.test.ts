import { readdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { createStore } from '../../src/content/store.ts'
import { as, call, json, SAMPLE_NOW, testApp, writableApp } from '../helpers.ts'

// README, Content format: `<stem>.md` without a language is in the default language. Writes went to
// `<stem>.<lang>.md` whatever file the record was read from: a PATCH made a second file, not read, and a DELETE left
// the event public (found by a review).
const SOURCE = `---
id: 22
title: Plain File
status: publish
date: 2026-11-01 10:00:00
author: 1
start_date: 2026-12-01 10:00:00
end_date: 2026-12-01 11:00:00
---
Body.
`

async function freshApp(content: string) {
  return testApp(
    await createStore(content, { defaultLanguage: 'en', fallback: true, timezone: 'UTC', now: () => SAMPLE_NOW }),
  )
}

/** Event 22's status on the running app and on a fresh one over the same tree, and the files of stem `c` left. */
async function liveAndFresh(app: Awaited<ReturnType<typeof writableApp>>) {
  const files = (await readdir(join(app.content, 'events'))).filter((name) => name.startsWith('c.'))
  const fresh = await freshApp(app.content)
  return { live: (await call(app, 'events/22')).status, fresh: (await call(fresh, 'events/22')).status, files }
}

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

async function withBareSource() {
  const app = await writableApp('reference')
  dirs.push(app.dir)
  await writeFile(join(app.content, 'events/c.md'), SOURCE)
  await app.store.reload(['events/c.md'])
  expect((await call(app, 'events/22')).body.title).toBe('Plain File')
  return app
}

it('an API write to a record whose source is <stem>.md is applied to that file', async () => {
  const app = await withBareSource()
  const patched = await call(app, 'events/22', json('PATCH', { slug: 'renamed', title: 'Renamed' }, as('admin')))
  const files = (await readdir(join(app.content, 'events'))).filter((n) => n.startsWith('c.'))
  // Now: 200 with the record unchanged (slug "", title "Plain File"), and a new events/c.en.md beside c.md that
  // is "not read" (c.md is the record's en file already).
  expect({ status: patched.status, slug: patched.body.slug, title: patched.body.title, files }).toEqual({
    status: 200,
    slug: 'renamed',
    title: 'Renamed',
    files: ['c.md'],
  })
})

it('after that write and an unrelated change, the running server answers as a fresh one over the same tree', async () => {
  const app = await withBareSource()
  await call(app, 'events/22', json('PATCH', { slug: 'renamed', title: 'Renamed' }, as('admin')))
  // Any later change elsewhere in the tree.
  await writeFile(join(app.content, 'events/plain-meetup.ms.md'), '---\ntitle: Satu\n---\n')
  await app.store.reload(['events/plain-meetup.ms.md'])
  const fresh = await freshApp(app.content)
  for (const path of ['events/22', 'events/by-slug/renamed']) {
    const [live, again] = [await call(app, path), await call(fresh, path)]
    expect({ path, status: live.status, title: live.body?.title }).toEqual({
      path,
      status: again.status,
      title: again.body?.title,
    })
  }
})

it.each([
  ['trash', ''],
  ['delete for good', '?force=true'],
])('DELETE (%s) of a record whose source is <stem>.md takes it out of anonymous reads', async (_, query) => {
  const app = await withBareSource()
  const deleted = await call(app, `events/22${query}`, { method: 'DELETE', headers: as('admin') })
  expect(deleted.status).toBe(200)
  // Live and after a restart, the event is no longer public.
  expect(await liveAndFresh(app)).toEqual({
    live: query ? 404 : 403,
    fresh: query ? 404 : 403,
    files: query ? [] : ['c.md'],
  })
})

// Two default-language sources of one stem (`c.md` and `c.en.md`, both with the id): the one first in path order is
// the source, as at a load. On a reload the store took whichever it found first in its list, the one there before.
it.each([
  ['c.md first, then c.en.md', 'events/c.md', 'events/c.en.md'],
  ['c.en.md first, then c.md', 'events/c.en.md', 'events/c.md'],
])('two default-language sources of one stem written on disk (%s): running equals fresh', async (_, first, second) => {
  const app = await writableApp('reference')
  dirs.push(app.dir)
  for (const path of [first, second]) {
    await writeFile(join(app.content, path), SOURCE.replace('title: Plain File', `title: From ${path}`))
    await app.store.reload([path])
  }
  const fresh = await freshApp(app.content)
  const [live, again] = [await call(app, 'events/22'), await call(fresh, 'events/22')]
  expect(live.body.title).toBe('From events/c.en.md')
  expect(again.body.title).toBe('From events/c.en.md')
})

// A delete for good removes every file of the record's languages: of c.en.md and c.md, the second was left, became
// the source, and the event answered 200 again after a 200 DELETE (found by a review).
it('DELETE ?force=true of a record with two default-language files leaves no file and no event', async () => {
  const app = await writableApp('reference')
  dirs.push(app.dir)
  for (const path of ['events/c.en.md', 'events/c.md']) {
    await writeFile(join(app.content, path), SOURCE.replace('title: Plain File', `title: From ${path}`))
    await app.store.reload([path])
  }
  expect((await call(app, 'events/22?force=true', { method: 'DELETE', headers: as('admin') })).status).toBe(200)
  expect(await liveAndFresh(app)).toEqual({
    live: 404,
    fresh: 404,
    files: [],
  })
})
