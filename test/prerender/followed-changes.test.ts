import { execFileSync } from 'node:child_process'
import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { as, call, json } from '../helpers.ts'
import { followedSite } from './followed-harness.ts'

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
      const git = (args: string[], date: string) =>
        execFileSync(
          'git',
          ['-c', 'user.name=T', '-c', 'user.email=t@example.org', '-c', 'commit.gpgsign=false', ...args],
          {
            cwd: app.content,
            stdio: 'pipe',
            env: {
              PATH: process.env.PATH!,
              HOME: app.content,
              GIT_CONFIG_NOSYSTEM: '1',
              GIT_AUTHOR_DATE: date,
              GIT_COMMITTER_DATE: date,
            },
          },
        )
      git(['init', '-q'], '2026-11-01T00:00:00Z')
      git(['add', '-A', '.'], '2026-11-01T00:00:00Z')
      git(['commit', '-q', '-m', 'start'], '2026-11-01T00:00:00Z')
      await app.store.askGit(true)
      await settled()
      const path = 'events/plain-meetup.en.md'
      await writeFile(
        join(app.content, path),
        (await readFile(join(app.content, path), 'utf8')).replace(/^title: .*$/m, 'title: Edited by hand'),
      )
      await app.store.reload([path])
      await settled()
      git(['commit', '-q', '-am', 'the edit'], '2027-01-05T00:00:00Z')
      await app.store.askGit(true) // what serve does each minute
    }))
})
