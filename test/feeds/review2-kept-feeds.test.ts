import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { call } from '../helpers.ts'
import { treeApp } from './review-tree.ts'

// Second review of issue 15 (docs/feeds.md §5): a whole feed is kept for its store version and UTC day. A relative
// date (`now`, `+1 week`: src/time/parse.ts) reads the clock at every request, and the kept answers
// (src/http/answer-reuse.ts) take no query with one; a kept feed is found by what its query holds, so it must not
// outlive what the words mean, yet a calendar app polling `start_date=now` need not have it made again each time.

const apps: { remove(): Promise<unknown> }[] = []
afterAll(async () => {
  for (const app of apps) await app.remove()
})

const event = (id: number, start: string, end: string) =>
  `---\nid: ${id}\ntitle: Event ${id}\nslug: event-${id}\ndate: 2020-01-01 09:00:00\nstart_date: ${start}\nend_date: ${end}\ntimezone: UTC\n---\nBody\n`

describe('a kept feed with a relative date', () => {
  it('leaves out, later the same day, an event that has ended since (as the JSON list does)', async () => {
    const app = await treeApp(
      {
        'events/morning.en.md': event(800, '2026-11-22 10:00:00', '2026-11-22 11:00:00'),
        'events/evening.en.md': event(801, '2026-11-22 20:00:00', '2026-11-22 21:00:00'),
      },
      { base: false },
    )
    apps.push(app)
    const uids = (text: string) => [...text.matchAll(/^UID:(\d+)@/gm)].map((m) => Number(m[1])).sort()
    const first = await call(app, 'events.ics?start_date=now&strict_dates=true')
    expect(uids(first.text)).toEqual([800, 801])
    // Noon, the same UTC day, nothing written.
    app.clock.now = Date.parse('2026-11-22T12:00:00Z')
    const json = await call(app, 'events?start_date=now&strict_dates=true')
    expect(json.body.events.map((one: { id: number }) => one.id)).toEqual([801])
    expect(uids((await call(app, 'events.ics?start_date=now&strict_dates=true')).text)).toEqual([801])
  })
})

describe('a feed with a relative date, asked again', () => {
  it('is kept under what it holds: a poll a minute later is the kept feed, one after an end is not', async () => {
    const app = await treeApp(
      {
        'events/morning.en.md': event(810, '2026-11-22 10:00:00', '2026-11-22 11:00:00'),
        'events/evening.en.md': event(811, '2026-11-22 20:00:00', '2026-11-22 21:00:00'),
      },
      { base: false },
    )
    apps.push(app)
    const feeds = app.context().caches.feeds
    app.clock.now = Date.parse('2026-11-22T09:00:00Z')
    const first = await call(app, 'events.ics?start_date=now&strict_dates=true')
    expect(first.status).toBe(200)
    const kept = feeds.bytes
    expect(kept).toBe(Buffer.byteLength(first.text))
    // A minute on, `now` is another instant but the feed holds the same two events: it is found, not made again.
    app.clock.now += 60_000
    const again = await call(app, 'events.ics?start_date=now&strict_dates=true')
    expect(again.text).toBe(first.text)
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'))
    expect(feeds.bytes).toBe(kept)
    // Past the morning event's end the query holds one event: another feed, kept beside the first.
    app.clock.now = Date.parse('2026-11-22T12:00:00Z')
    const later = await call(app, 'events.ics?start_date=now&strict_dates=true')
    expect([...later.text.matchAll(/^UID:(\d+)@/gm)].map((m) => Number(m[1]))).toEqual([811])
    expect(feeds.bytes).toBe(kept + Buffer.byteLength(later.text))
  })
})

describe('a feed asked for while the store changes', () => {
  it('reads its records once git has answered, so a change that landed meanwhile is in it and in what is kept', async () => {
    const app = await treeApp(
      { 'events/race.en.md': event(820, '2026-12-01 10:00:00', '2026-12-01 11:00:00') },
      { base: false },
    )
    apps.push(app)
    // Not asked before: the kept answers (src/http/answer-cache.ts) would answer it without the route.
    const FEED = 'events.ics?start_date=2026-01-01'
    // Git is asked before a feed reads its records (its SEQUENCE counts commits, and a commit it finds settles the
    // records of the files it changed again): the answer is held here until the change below has landed, as a slow
    // `git rev-parse` would.
    const ask = app.store.askGit.bind(app.store)
    let answerGit: () => void = () => {}
    const asked = new Promise<void>((resolve) => {
      app.store.askGit = (again) =>
        new Promise<void>((done) => {
          answerGit = () => void ask(again).then(done)
          resolve()
        })
    })
    const file = join(app.dir, 'content', 'events/race.en.md')
    await writeFile(file, (await readFile(file, 'utf8')).replace('title: Event 820', 'title: Renamed 820'))
    const racing = call(app, FEED)
    await asked
    await app.store.reload(['events/race.en.md'])
    answerGit()
    const raced = await racing
    expect(raced.text).toContain('SUMMARY:Renamed 820')
    app.store.askGit = ask
    // Kept for the version its records were read at, the one after the change: the next answer is it.
    const next = await call(app, FEED)
    expect(next.text).toBe(raced.text)
    expect(next.headers.get('etag')).toBe(raced.headers.get('etag'))
  })
})
