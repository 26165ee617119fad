import { execFileSync } from 'node:child_process'
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createStore, type Store } from '../../src/content/store.ts'
import { buildUrls } from '../../src/prerender/public-urls.ts'
import { buildFeedBytes, createBuildApp } from '../../src/prerender/renderer.ts'
import { call, FIXTURES, SAMPLE_NOW, testApp, testSite } from '../helpers.ts'

// A plain event's VEVENT key is kept while nothing but plain events changes (src/serialize/feed/plain-keys.ts), and
// a static build's app holds the VEVENT itself with it. Whatever else changes must still reach every VEVENT.

const dirs: string[] = []
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

async function tree(): Promise<{ dir: string; content: string; store: Store }> {
  const dir = await mkdtemp(join(tmpdir(), 'almanac-plain-keys-'))
  dirs.push(dir)
  const content = join(dir, 'content')
  await cp(resolve(FIXTURES, 'feeds', 'content'), content, { recursive: true })
  const store = await createStore(content, {
    defaultLanguage: 'en',
    fallback: true,
    timezone: 'UTC',
    now: () => SAMPLE_NOW,
  })
  return { dir, content, store }
}

function git(dir: string, args: string[], date: string) {
  const env = { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, GIT_CONFIG_NOSYSTEM: '1' }
  const who = ['-c', 'user.name=Editor', '-c', 'user.email=editor@example.org', '-c', 'commit.gpgsign=false']
  execFileSync('git', [...who, ...args], { cwd: dir, env, stdio: 'pipe' })
}

/** The app a static build follows edits with: it holds its feeds' VEVENTs. */
function buildApp(store: Store) {
  const options = { site: testSite(), publicUrl: 'https://cdn.example.org', perPage: 9, maxPerPage: 50 }
  const { layout } = buildUrls(options)
  return createBuildApp(store, { ...options, feedCacheBytes: buildFeedBytes(4) }, layout, () => SAMPLE_NOW)
}

/** The VEVENT of an event (by UID) in a feed's text. */
const veventOf = (text: string, id: number) =>
  text.split('BEGIN:VEVENT').find((part) => part.includes(`UID:${id}@`)) ?? ''

describe('the kept VEVENTs of plain events', () => {
  it('follow a renamed venue into every event at it, in the app of a static build, as a fresh app has them', async () => {
    const { content, store } = await tree()
    const app = buildApp(store)
    const url = 'http://localhost:3000/wp-json/calendar/events/v1/events.ics'
    const before = await (await app.fetch(new Request(url))).text()
    expect(veventOf(before, 23)).toContain('LOCATION:Community Hall\\, Main Room')
    const hall = join(content, 'venues/hall.en.md')
    await writeFile(
      hall,
      (await readFile(hall, 'utf8')).replace('venue: Community Hall, Main Room', 'venue: Town Hall'),
    )
    await store.reload(['venues/hall.en.md'])
    const after = await (await app.fetch(new Request(url))).text()
    expect(veventOf(after, 23)).toContain('LOCATION:Town Hall')
    expect(after).not.toContain('Main Room')
    expect(after).toBe(await (await buildApp(store).fetch(new Request(url))).text())
  })

  it('follow a commit that changes no file (git moves the store version alone) into SEQUENCE', async () => {
    const { dir, content, store } = await tree()
    git(dir, ['init', '-q'], '2026-10-01T10:00:00Z')
    git(dir, ['add', '.'], '2026-10-01T10:00:00Z')
    git(dir, ['commit', '-q', '-m', 'content'], '2026-10-01T10:00:00Z')
    const fair = join(content, 'events/fair.en.md')
    await writeFile(fair, (await readFile(fair, 'utf8')).replace('title: Craft Fair', 'title: Craft and Food Fair'))
    await store.reload(['events/fair.en.md'])
    const app = testApp(store)
    const sequence = async () => /^SEQUENCE:(\d+)/m.exec(veventOf((await call(app, 'events.ics')).text, 23))?.[1]
    const before = await sequence()
    git(dir, ['commit', '-q', '-a', '-m', 'rename the fair'], '2027-01-02T03:04:05Z')
    await store.askGit(true)
    const after = await sequence()
    expect(Number(after)).toBe((Date.parse('2027-01-02T03:04:05Z') - Date.UTC(2020, 0, 1)) / 1000)
    expect(Number(after)).toBeGreaterThan(Number(before))
  })
})
