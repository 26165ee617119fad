import { execFileSync } from 'node:child_process'
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createStore } from '../../src/content/store.ts'
import { call, FIXTURES, SAMPLE_NOW, testApp } from '../helpers.ts'
import { instancesOf, parseFeed } from './parse.ts'

// Editors commit content through git: a file moved by hand and committed raises its event's SEQUENCE, to the
// seconds of the commit (docs/feeds.md §3), whatever its `modified` says.

const dirs: string[] = []
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

function git(dir: string, args: string[], date: string) {
  const env = { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, GIT_CONFIG_NOSYSTEM: '1' }
  const who = ['-c', 'user.name=Editor', '-c', 'user.email=editor@example.org', '-c', 'commit.gpgsign=false']
  execFileSync('git', [...who, ...args], { cwd: dir, env, stdio: 'pipe' })
}

const SEQUENCE_EPOCH = Date.UTC(2020, 0, 1)

describe('SEQUENCE and git', () => {
  it('rises to the commit of a file moved by hand, and the UID stays', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'almanac-feed-git-'))
    dirs.push(dir)
    const content = join(dir, 'content')
    await cp(resolve(FIXTURES, 'feeds', 'content'), content, { recursive: true })
    git(dir, ['init', '-q'], '2026-11-01T10:00:00Z')
    git(dir, ['add', '.'], '2026-11-01T10:00:00Z')
    git(dir, ['commit', '-q', '-m', 'content'], '2026-11-01T10:00:00Z')
    const store = await createStore(content, {
      defaultLanguage: 'en',
      fallback: true,
      timezone: 'UTC',
      now: () => SAMPLE_NOW,
    })
    const app = testApp(store)
    const read = async () => instancesOf(parseFeed((await call(app, 'events/20.ics')).text))[0]!
    const before = await read()
    // The concert's `modified` (2026-11-02 10:00) is later than the first commit: it decides.
    expect(before.sequence).toBe((Date.parse('2026-11-02T10:00:00Z') - SEQUENCE_EPOCH) / 1000)
    const file = join(content, 'events/concert.en.md')
    const moved = (await readFile(file, 'utf8')).replaceAll('2026-12-12', '2026-12-13')
    await writeFile(file, `${moved}\nNow on the 13th.\n`)
    git(dir, ['commit', '-q', '-a', '-m', 'move the concert'], '2026-11-20T08:30:00Z')
    await store.reload(['events/concert.en.md'])
    const after = await read()
    expect(after.uid).toBe(before.uid)
    expect(after.start).toBe(Date.parse('2026-12-13T19:00:00Z'))
    expect(after.sequence).toBe((Date.parse('2026-11-20T08:30:00Z') - SEQUENCE_EPOCH) / 1000)
  })
})
