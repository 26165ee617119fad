import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { createApp } from '../../src/app.ts'
import { createStore, type Problem } from '../../src/content/store.ts'
import { FIXTURES, SAMPLE_NOW, testSite } from '../helpers.ts'

// A review helper: the feeds fixture (or nothing) plus files of a test's own, loaded as fixtureApp loads a tree;
// `clock.now` may be moved by the test.

export interface Clock {
  now: number
}

export async function treeApp(files: Record<string, string>, options: { base?: boolean; timezone?: string } = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'almanac-review-'))
  const content = join(dir, 'content')
  if (options.base !== false) await cp(resolve(FIXTURES, 'feeds', 'content'), content, { recursive: true })
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(content, path)), { recursive: true })
    await writeFile(join(content, path), text)
  }
  const clock: Clock = { now: SAMPLE_NOW }
  const problems: Problem[] = []
  const timezone = options.timezone ?? 'UTC'
  const store = await createStore(content, {
    defaultLanguage: 'en',
    fallback: true,
    onProblem: (problem) => problems.push(problem),
    timezone,
    now: () => clock.now,
  })
  const app = createApp({
    store,
    site: testSite({ timezone }),
    perPage: 9,
    maxPerPage: 50,
    fallback: true,
    now: () => clock.now,
    log: () => {},
  })
  return Object.assign(app, { problems, store, clock, dir, remove: () => rm(dir, { recursive: true, force: true }) })
}
