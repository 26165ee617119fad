import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createApp } from '../../src/app.ts'
import { createStore } from '../../src/content/store.ts'
import { call, testSite } from '../helpers.ts'

// A commit is followed as a change of the records whose files it changed (src/content/store/dating.ts,
// `touchCommitted`): what a running app serves after it must be what an app started afresh over the same tree serves.
// These are the cases a review of that change found, each failing before its fix.

const NOW = Date.parse('2026-11-22T02:08:30Z')
const made: string[] = []
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true })
})

/** A content folder under git, with files written and git run in it at fixed dates. */
function repository(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'almanac-commit-follow-'))
  made.push(dir)
  const content = join(dir, 'content')
  const put = (path: string, text: string) => {
    mkdirSync(dirname(join(content, path)), { recursive: true })
    writeFileSync(join(content, path), text)
  }
  for (const [path, text] of Object.entries(files)) put(path, text)
  const git = (args: string[], at?: string) =>
    execFileSync(
      'git',
      ['-c', 'user.name=E', '-c', 'user.email=e@example.org', '-c', 'commit.gpgsign=false', ...args],
      {
        cwd: content,
        stdio: 'pipe',
        env: {
          PATH: process.env.PATH!,
          HOME: dir,
          GIT_CONFIG_NOSYSTEM: '1',
          ...(at ? { GIT_AUTHOR_DATE: at, GIT_COMMITTER_DATE: at } : {}),
        },
      },
    )
  git(['init', '-q'])
  git(['add', '-A'])
  git(['commit', '-q', '-m', 'first'], '2026-10-01T08:00:00Z')
  return { content, put, git }
}

/** An app over a store of its own: a running one, or one started afresh to compare with. */
async function appOver(content: string) {
  const store = await createStore(content, { defaultLanguage: 'en', fallback: true, timezone: 'UTC', now: () => NOW })
  const app = createApp({
    store,
    site: testSite({ timezone: 'UTC' }),
    perPage: 9,
    maxPerPage: 50,
    fallback: true,
    now: () => NOW,
    log: () => {},
  })
  return Object.assign(app, { store })
}

const event = (id: number, title: string, date = 'date: 2020-01-01 09:00:00\n') =>
  `---\nid: ${id}\ntitle: ${title}\nslug: e-${id}\n${date}start_date: 2026-12-01 10:00:00\nend_date: 2026-12-01 11:00:00\ntimezone: UTC\n---\nBody\n`

/** What a VEVENT says of commits. */
const dated = (text: string) => [...text.matchAll(/^(CREATED|SEQUENCE|LAST-MODIFIED):.*$/gm)].map((m) => m[0].trim())

let noGit: unknown
try {
  execFileSync('git', ['--version'], { stdio: 'ignore' })
} catch (error) {
  noGit = error
}

describe.skipIf(noGit !== undefined)('a running app after a commit', () => {
  it('follows a commit git told a reload of, for a file the reload read but left as it was', async () => {
    const tree = repository({ 'events/a.en.md': event(500, 'A') })
    const app = await appOver(tree.content)
    tree.put('events/a.en.md', event(500, 'A edited'))
    await app.store.reload(['events/a.en.md'])
    await call(app, 'events/500.ics')
    tree.git(['commit', '-q', '-am', 'edit'], '2026-11-20T08:00:00Z')
    // One batch: A saved again with the same bytes, and a new file without `date:` that git must date, so the reload
    // asks git and hears of A's commit. A is not settled by the reload (nothing of it changed): it must be after.
    utimesSync(join(tree.content, 'events/a.en.md'), new Date(), new Date())
    tree.put('events/b.en.md', event(501, 'B', ''))
    await app.store.reload(['events/a.en.md', 'events/b.en.md'])
    const running = await call(app, 'events/500.ics')
    expect(dated(running.text)).toContain('LAST-MODIFIED:20261120T080000Z')
    expect(dated(running.text)).toEqual(dated((await call(await appOver(tree.content), 'events/500.ics')).text))
  })

  it('dates an undated file again by its commit after an amend moved when it was added', async () => {
    const tree = repository({ 'events/u.en.md': event(600, 'Undated', '') })
    const app = await appOver(tree.content)
    await call(app, 'events/600.ics')
    tree.git(['commit', '-q', '--amend', '--no-edit', '--date=2026-11-15T08:00:00Z'], '2026-11-15T08:00:00Z')
    await app.store.askGit(true)
    const restarted = await appOver(tree.content)
    expect(dated((await call(app, 'events/600.ics')).text)).toEqual(
      dated((await call(restarted, 'events/600.ics')).text),
    )
    const date = async (one: typeof app) => (await call(one, 'events/600')).body.date
    expect(await date(app)).toBe(await date(restarted))
    expect(await date(app)).toBe('2026-11-15 08:00:00')
  })

  it("answers 404 for an occurrence's feed whose occurrence a change removed while git was asked, and keeps nothing", async () => {
    const series = (count: number) =>
      `---\nid: 40\ntitle: Market\nslug: market\ndate: 2026-08-01 09:00:00\nstart_date: 2026-12-05 18:00:00\nend_date: 2026-12-05 23:00:00\ntimezone: UTC\nrecurrence:\n  rrule: FREQ=MONTHLY;BYDAY=1SA;COUNT=${count}\n---\nStalls.\n`
    const tree = repository({ 'events/market.en.md': series(4) })
    const app = await appOver(tree.content)
    const list = await call(app, 'events?start_date=2026-01-01&end_date=2027-12-31&per_page=50')
    const last = list.body.events.at(-1).id as number
    // The store moved since git was last asked, so the feed waits on `git rev-parse`; the series loses its last
    // occurrence meanwhile.
    tree.put('events/other.en.md', event(41, 'Other'))
    await app.store.reload(['events/other.en.md'])
    const racing = call(app, `events/${last}.ics`)
    await new Promise((resolve) => setImmediate(resolve))
    tree.put('events/market.en.md', series(3))
    await app.store.reload(['events/market.en.md'])
    // 404 when the change landed first, as here on every run seen; either way nothing of the series before is kept.
    expect([200, 404]).toContain((await racing).status)
    const restarted = await appOver(tree.content)
    expect((await call(app, 'events/40.ics')).text).toBe((await call(restarted, 'events/40.ics')).text)
  })
})
