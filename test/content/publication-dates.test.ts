import { execFileSync } from 'node:child_process'
import { cp, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createApp } from '../../src/app.ts'
import { createSiteBuilder } from '../../src/prerender/site-builder.ts'
import { checkContent } from '../../src/content/check.ts'
import type { Store } from '../../src/content/store.ts'
import { watchContent } from '../../src/content/watch.ts'
import { call, FIXTURES, SAMPLE_NOW, testSite } from '../helpers.ts'
import { eventually, loadStore } from './trees.ts'

const ZONE = 'Asia/Singapore'
const ADDED = '2024-03-05T10:20:30Z' // 18:20:30 in Singapore
const UNDATED = (title: string, id: number | null = 50) =>
  `---\n${id ? `id: ${id}\n` : ''}title: ${title}\nslug: ${title.toLowerCase().replace(/ /g, '-')}\nstatus: publish\nstart_date: 2026-12-20 18:00:00\nend_date: 2026-12-20 20:00:00\n---\nAbout ${title}.\n`

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'almanac-dates-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

const git = (cwd: string, args: string[], date = ADDED) =>
  execFileSync('git', ['-c', 'user.email=t@example.org', '-c', 'user.name=t', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    stdio: 'pipe',
    env: { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
  })

/** A repository whose content folder (a sub-folder, as in a site's repository) holds one event without `date`. */
async function repository() {
  const repo = join(dir, 'repo')
  await cp(join(FIXTURES, 'reference', 'content'), join(repo, 'site', 'content'), { recursive: true })
  await writeFile(join(repo, 'site', 'content', 'events', 'undated.en.md'), UNDATED('Undated'))
  git(dir, ['init', '-q', '-b', 'main', repo])
  git(repo, ['add', '-A'])
  git(repo, ['commit', '-qm', 'content'])
  return repo
}

/** Clones the repository; the clone's files get the mtime of the moment, or `mtime` when given. */
async function clone(repo: string, name: string, mtime?: Date) {
  git(dir, ['clone', '-q', repo, name])
  const content = join(dir, name, 'site', 'content')
  if (mtime) await utimes(join(content, 'events', 'undated.en.md'), mtime, mtime)
  return content
}

const appOver = (store: Store) =>
  createApp({
    store,
    site: testSite({ timezone: ZONE }),
    perPage: 9,
    maxPerPage: 50,
    fallback: true,
    now: () => SAMPLE_NOW,
  })
const datesOf = async (store: Store, id = 50) => {
  const { body } = await call(appOver(store), `events/${id}`)
  return { date: body.date, date_utc: body.date_utc }
}

describe('the publication date of a record written without one', () => {
  it('is when git added the file, the same on two clones of one commit whatever their mtimes', async () => {
    const repo = await repository()
    const first = await loadStore(await clone(repo, 'one', new Date('2020-01-01T00:00:00Z')))
    const second = await loadStore(await clone(repo, 'two', new Date('2030-06-01T00:00:00Z')))
    expect(await datesOf(first.store)).toEqual({ date: '2024-03-05 18:20:30', date_utc: '2024-03-05 10:20:30' })
    expect(await datesOf(second.store)).toEqual(await datesOf(first.store))
  })

  it('follows the file through a rename', async () => {
    const repo = await repository()
    git(join(repo, 'site', 'content'), ['mv', 'events/undated.en.md', 'events/renamed.en.md'])
    git(repo, ['commit', '-qm', 'rename'], '2025-01-01T00:00:00Z')
    const { store } = await loadStore(await clone(repo, 'one'))
    expect((await datesOf(store)).date).toBe('2024-03-05 18:20:30')
  })

  it('stays the same when the watcher reads the file again after an edit, as a restart would', async () => {
    const content = await clone(await repository(), 'one')
    const { store } = await loadStore(content)
    const watching = watchContent(store)
    try {
      await watching.ready
      await writeFile(join(content, 'events', 'undated.en.md'), UNDATED('Undated, Edited'))
      await eventually(async () => expect((await call(appOver(store), 'events/50')).body.title).toBe('Undated, Edited'))
      expect((await datesOf(store)).date).toBe('2024-03-05 18:20:30')
    } finally {
      await watching.close()
    }
  })

  it('is taken from git when the watcher read the file before its commit was there, as after a checkout', async () => {
    const content = await clone(await repository(), 'one')
    const { store } = await loadStore(content)
    const watching = watchContent(store)
    try {
      await watching.ready
      await writeFile(join(content, 'events', 'pulled.en.md'), UNDATED('Pulled', 51))
      await eventually(async () => expect((await call(appOver(store), 'events/51')).body.title).toBe('Pulled'))
      git(content, ['add', 'events/pulled.en.md'])
      git(content, ['commit', '-qm', 'pulled'], '2025-07-08T09:10:11Z')
      await eventually(async () => expect((await datesOf(store, 51)).date).toBe('2025-07-08 17:10:11'))
      expect(await datesOf((await loadStore(content)).store, 51)).toEqual(await datesOf(store, 51))
    } finally {
      await watching.close()
    }
  })

  it('is the same in the static build, whose workers load the tree themselves', async () => {
    const content = await clone(await repository(), 'one')
    const { store } = await loadStore(content)
    const out = join(dir, 'out')
    const builder = createSiteBuilder({
      store,
      site: testSite({ timezone: ZONE }),
      out,
      publicUrl: 'https://cdn.example.org',
      perPage: 9,
      maxPerPage: 50,
      now: () => SAMPLE_NOW,
      workers: 2,
    })
    await builder.full()
    const built = JSON.parse(await readFile(join(out, 'wp-json/calendar/events/v1/events/50.json'), 'utf8'))
    expect({ date: built.date, date_utc: built.date_utc }).toEqual(await datesOf(store))
    expect(built.date).toBe('2024-03-05 18:20:30')
  })

  it('is the file’s mtime outside a repository, and check warns that it is not stable', async () => {
    const content = join(dir, 'content')
    await cp(join(FIXTURES, 'reference', 'content'), content, { recursive: true })
    await writeFile(join(content, 'events', 'undated.en.md'), UNDATED('Undated'))
    await utimes(
      join(content, 'events', 'undated.en.md'),
      new Date('2025-02-03T04:05:06Z'),
      new Date('2025-02-03T04:05:06Z'),
    )
    expect((await datesOf((await loadStore(content)).store)).date).toBe('2025-02-03 12:05:06')
    const { problems } = await checkContent(content, false, ZONE)
    expect(problems.filter((p) => p.path === 'events/undated.en.md')).toEqual([
      expect.objectContaining({
        severity: 'warning',
        message: expect.stringMatching(/modification time.*check --fix writes it down/),
      }),
    ])
  })

  it('is the file’s mtime in a shallow clone, where git cannot tell when the file was added', async () => {
    const repo = await repository()
    await writeFile(join(repo, 'site', 'content', 'events', 'plain-meetup.en.md'), 'later\n', { flag: 'a' })
    git(repo, ['commit', '-qam', 'later'], '2025-09-09T09:09:09Z')
    git(dir, ['clone', '-q', '--depth', '1', `file://${repo}`, 'shallow'])
    const content = join(dir, 'shallow', 'site', 'content')
    await utimes(
      join(content, 'events', 'undated.en.md'),
      new Date('2025-02-03T04:05:06Z'),
      new Date('2025-02-03T04:05:06Z'),
    )
    expect((await datesOf((await loadStore(content)).store)).date).toBe('2025-02-03 12:05:06')
  })

  it('is the file’s mtime when git is not installed', async () => {
    const content = await clone(await repository(), 'one', new Date('2025-02-03T04:05:06Z'))
    const path = process.env.PATH
    process.env.PATH = join(dir, 'no-git-here')
    try {
      expect((await datesOf((await loadStore(content)).store)).date).toBe('2025-02-03 12:05:06')
    } finally {
      process.env.PATH = path
    }
  })

  it('is written into the file by check --fix, in the site’s time zone, and served the same afterwards', async () => {
    const content = await clone(await repository(), 'one')
    const { fixed } = await checkContent(content, true, ZONE)
    expect(fixed).toContain('events/undated.en.md: date 2024-03-05 18:20:30 written (when git added the file)')
    const text = await readFile(join(content, 'events', 'undated.en.md'), 'utf8')
    expect(text).toBe(UNDATED('Undated').replace('status: publish\n', 'status: publish\ndate: 2024-03-05 18:20:30\n'))
    expect((await datesOf((await loadStore(content)).store)).date).toBe('2024-03-05 18:20:30')
    expect((await checkContent(content, true, ZONE)).fixed).toEqual([])
  })

  it('is never 1970 for a file given an id at start-up, and a restart serves the same date', async () => {
    const content = join(dir, 'content')
    await cp(join(FIXTURES, 'reference', 'content'), content, { recursive: true })
    await writeFile(join(content, 'events', 'no-id.en.md'), UNDATED('No Id', null))
    const running = (await loadStore(content, true)).store
    const id = running.list('events').find((r) => r.stem === 'no-id')!.id
    const served = await datesOf(running, id)
    expect(served.date.startsWith('1970')).toBe(false)
    expect(await datesOf((await loadStore(content, true)).store, id)).toEqual(served)
  })
})
