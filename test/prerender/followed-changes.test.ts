import { execFileSync } from 'node:child_process'
import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { as, call, json } from '../helpers.ts'
import { followedSite } from './followed-harness.ts'
import type { Store } from '../../src/content/store.ts'
import { plainEpoch } from '../../src/serialize/plain-epoch.ts'

// Changes the site kept current by `serve --build` and `build --watch` missed, found by a review: after each, the
// followed site must equal a fresh full build of the same tree, byte for byte, every file.

async function following(
  fixture: string,
  perPage: number,
  steps: (site: Awaited<ReturnType<typeof followedSite>>) => Promise<void>,
) {
  const site = await followedSite(fixture, perPage)
  try {
    await steps(site)
    expect(await site.differences()).toEqual([])
  } finally {
    await site.cleanup()
  }
}

const jazzNight = (category: number) =>
  json(
    'POST',
    { title: 'Jazz Night', start_date: '2026-11-28 19:00:00', end_date: '2026-11-28 21:00:00', categories: [category] },
    as('admin'),
  )

describe('a followed site', () => {
  it("takes an event of a sub-category into its parent's feed, and out of it when made a draft", () =>
    following('reference', 2, async ({ app, settled, differences }) => {
      const child = await call(app, 'categories', json('POST', { name: 'Jazz', parent: 2 }, as('admin')))
      await settled()
      const created = await call(app, 'events', jazzNight(child.body.id))
      expect((await call(app, 'categories/2/events.ics')).text).toContain('Jazz Night')
      expect(await differences()).toEqual([])
      await call(app, `events/${created.body.id}`, json('PATCH', { status: 'draft' }, as('admin')))
    }))

  it.each([
    ['a plain event joins a category the series is in', 'events/20', { categories: [2] }],
    ["the series' venue is renamed", 'venues/10', { venue: 'Renamed Hall' }],
    ["the series' venue is made a draft", 'venues/10', { venue: 'Hall', status: 'draft' }],
  ])("renders a series' own files again when %s", (_, path, change) =>
    following('series', 9, async ({ app }) => {
      expect((await call(app, path, json('PATCH', change, as('admin')))).status).toBe(200)
    }),
  )

  it('drops the files of an id changed by hand under the same file name', () =>
    following('reference', 2, async ({ app }) => {
      const path = 'events/plain-meetup.en.md'
      const text = await readFile(join(app.content, path), 'utf8')
      await writeFile(join(app.content, path), text.replace(/^id: \d+$/m, 'id: 555'))
      await app.store.reload([path])
      expect((await call(app, 'events/555')).status).toBe(200)
    }))

  it.each([
    [
      'resized',
      async (file: string) => {
        const bytes = Buffer.from(await readFile(file))
        bytes.writeUInt32BE(640, 16) // a PNG's width and height: 640 × 400
        bytes.writeUInt32BE(400, 20)
        await writeFile(file, bytes)
      },
    ],
    ['deleted', (file: string) => rm(file)],
  ])('follows an image %s on disk', (_, change) =>
    following('reference', 2, async ({ app }) => {
      await change(join(app.content, 'media/6-poster.png'))
      await app.store.reload(['media/6-poster.png'])
    }),
  )

  it("follows git's dates: a hand edit, then its commit", () =>
    following('reference', 2, async ({ app, settled }) => {
      await handEdit(app, settled)
      gitIn(app.content, ['commit', '-q', '-am', 'the edit'], '2027-01-05T00:00:00Z')
      await app.store.askGit(true) // what serve does each minute
    }))

  it("renders again, after a commit, only the committed event's feeds, not the whole site", () =>
    following('reference', 2, async ({ app, settled, results, out }) => {
      const path = await handEdit(app, settled)
      const before = results.length
      const epoch = () => plainEpoch(app.context().caches.memo, app.store)
      const { version } = app.store
      const was = epoch()
      gitIn(app.content, ['commit', '-q', '-am', 'the edit'], '2027-01-05T00:00:00Z')
      await app.store.askGit(true)
      await settled()
      // The commit is a change of that event alone: the store's version moves, and every other event's kept JSON
      // and VEVENT stays in use (the plain epoch, src/serialize/plain-epoch.ts, did not move).
      expect(app.store.version).toBeGreaterThan(version)
      expect(epoch()).toBe(was)
      const after = results.slice(before)
      // One update, of the feeds that hold the event (its JSON shows no commit date); no full build (whose result
      // counts its by-slug pages), which a commit used to bring.
      expect(after).toHaveLength(1)
      expect(after[0]!.slugPages).toBeUndefined()
      expect(after[0]!.written).toBeGreaterThan(0)
      expect(after[0]!.written).toBeLessThan(10)
      const id = app.store.list('events').find((event) => event.source.path === path)!.id
      const feed = await readFile(join(out, 'wp-json/calendar/events/v1/events.ics'), 'utf8')
      const vevent = feed.slice(feed.indexOf(`UID:${id}@`))
      expect(vevent.slice(0, vevent.indexOf('END:VEVENT'))).toContain('LAST-MODIFIED:20270105T000000Z')
    }))
})

/** Puts the fixture under git (a first commit dated 2026-11-01), then edits an event's title by hand; its path. */
async function handEdit(app: { content: string; store: Store }, settled: () => Promise<void>): Promise<string> {
  gitIn(app.content, ['init', '-q'], '2026-11-01T00:00:00Z')
  gitIn(app.content, ['add', '-A', '.'], '2026-11-01T00:00:00Z')
  gitIn(app.content, ['commit', '-q', '-m', 'start'], '2026-11-01T00:00:00Z')
  await app.store.askGit(true)
  await settled()
  const path = 'events/plain-meetup.en.md'
  await writeFile(
    join(app.content, path),
    (await readFile(join(app.content, path), 'utf8')).replace(/^title: .*$/m, 'title: Edited by hand'),
  )
  await app.store.reload([path])
  await settled()
  return path
}

/** Runs git in `dir` as a fixed author, with `date` as the author's and committer's date, and no user settings. */
function gitIn(dir: string, args: string[], date: string): void {
  execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.org', '-c', 'commit.gpgsign=false', ...args], {
    cwd: dir,
    stdio: 'pipe',
    env: {
      PATH: process.env.PATH!,
      HOME: dir,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
    },
  })
}
