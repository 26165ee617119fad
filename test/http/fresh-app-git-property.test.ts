import { execFileSync } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, unlink, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { App } from '../../src/app.ts'
import { openUsers, type UserDirectory } from '../../src/auth/users.ts'
import { createStore, type Store } from '../../src/content/store.ts'
import { as, call, json, type TestAppOptions, writableApp } from '../helpers.ts'
import { type LeakTree, treeSpec, writeLeakTree } from '../routes/leak-tree.ts'
import { clockMove, movedClock } from './clock-moves.ts'
import { type Asked, batchOf, type Caller, comparison, freshAppOver, quietStore, tally } from './fresh-app-compare.ts'
import { ALL_DAY, addRecords, JAZZ, LANTERN, LATE, OCCURRENCES, OPEN_SERIES, SERIES } from './fresh-app-tree.ts'

// Warm caches follow git (docs/feeds.md §3, docs/architecture.md §3): the fresh-app property
// (fresh-app-property.test.ts) over a content tree that is a git repository. Records written without `date:` are
// dated by the commit that added their file (src/content/store/dating.ts), feeds' SEQUENCE, DTSTAMP and
// LAST-MODIFIED follow the last commit that changed an event's, its venue's or organizer's file (`committedAt`), and
// the records of files whose dates moved are settled again as new objects, whoever asked git (`touchCommitted`,
// src/content/store/dating.ts). Over random runs of reads, edits on disk read back
// with `store.reload`, commits of them (at chosen author and committer dates), amends of the last commit, commits
// that rename a record's files, the store asking git again (`askGit(true)`, as `almanac serve` does each minute),
// git's late dating of files the watcher read first (`redateLater`, on fake timers), writes through the API and
// moves of the clock, every answer of the running app (kept answers and its front door, the JSON memo, kept feeds
// and VEVENTs, all warm) is byte for byte what a brand-new app over the same store and clock answers at that moment.
// Each run starts from the same repository (reset to its first commits, files never committed written back, every
// mtime pinned) with a new store and running app. A failure prints the run's every step and request. FC_SEED=<n>
// replays it (the seed also picks the tree); FC_RUNS sets the number of runs.
const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)
const RUNS = Number(process.env.FC_RUNS ?? 10)
const START = Date.parse('2026-12-10T10:30:00Z')
/** Every file's mtime when a run starts: the date of records git cannot date. */
const PINNED_MTIME = Date.parse('2026-11-25T06:00:00Z')

/** Why git cannot run here, or undefined when it can. */
const noGit = (() => {
  try {
    execFileSync('git', ['--version'], { stdio: 'pipe' })
    return undefined
  } catch (error) {
    return (error as Error).message.split('\n')[0]
  }
})()

// A site ahead of UTC: its local midnight (16:00 UTC) and UTC's are different moments.
const options: TestAppOptions = { now: START, timezone: 'Asia/Kuala_Lumpur' }
let tree: LeakTree
/** The folder of the content tree (a git repository), its users file and the app `writableApp` made over it. */
let base: Awaited<ReturnType<typeof writableApp>>
let content: string
/** HOME and XDG_CONFIG_HOME of the test's git runs: no user's configuration is read. */
let home: string
let users: UserDirectory
/** The commit every run starts from. */
let initial: string
/** The text of every record file when the repository was made (some never committed, one edited since). */
let pristine: Map<string, string>
/** The store and running app of the current run; `quiet` is the store as fresh apps see it. */
let store: Store
let app: App
let quiet: Store
let compared: Awaited<ReturnType<typeof comparison>>
/** A brand-new app over the run's store, users and clock: nothing kept, nothing memoized, no index built yet. */
const freshApp = (keeping = false) => freshAppOver(quiet, users, options, keeping)

/** Ids of events this file writes on disk, never committed until a run commits them. */
const NEW = [950, 951, 952]

/** The env of the test's own git runs: a fixed identity and dates, no system or user configuration. */
function gitEnv(at?: When): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: join(home, 'gitconfig'),
    GIT_TERMINAL_PROMPT: '0',
    LC_ALL: 'C',
  }
  for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_CEILING_DIRECTORIES'])
    delete env[name]
  if (at) {
    env.GIT_AUTHOR_DATE = at.author
    env.GIT_COMMITTER_DATE = new Date(Date.parse(at.author) + at.lag * 1000).toISOString().replace('.000', '')
  }
  return env
}

const IDENTITY = [
  '-c',
  'user.name=Editor',
  '-c',
  'user.email=editor@example.org',
  '-c',
  'commit.gpgsign=false',
  '-c',
  'init.defaultBranch=main',
  '-c',
  'core.autocrlf=false',
  '-c',
  'core.hooksPath=/dev/null',
]

/** Runs git in the content folder; its output. */
function git(args: string[], at?: When): string {
  return execFileSync('git', [...IDENTITY, ...args], { cwd: content, env: gitEnv(at), encoding: 'utf8', stdio: 'pipe' })
}

/** Every record file under the content folder (no dotfiles), relative to it. */
async function contentFiles(): Promise<string[]> {
  const entries = await readdir(content, { recursive: true, withFileTypes: true })
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(content.length + 1))
    .filter((path) => !path.split('/').some((part) => part.startsWith('.')))
    .sort()
}

/** Drops a record file's `date:` line: git dates it, or its mtime until git can. */
async function undate(path: string): Promise<void> {
  const full = join(tree.dir, 'content', path)
  await writeFile(full, (await readFile(full, 'utf8')).replace(/^date: .*\n/m, ''))
}

/** The files a leak-tree event may have (`p{id}.{lang}.md`); those that exist are committed. */
const eventFiles = (ids: number[]) =>
  ids.flatMap((id) => ['en', 'ms', 'zh-hans'].map((lang) => `events/p${id}.${lang}.md`))

beforeAll(async () => {
  if (noGit) return
  home = await mkdtemp(join(tmpdir(), 'almanac-git-home-'))
  await writeFile(join(home, 'gitconfig'), '')
  tree = await writeLeakTree(fc.sample(treeSpec, { seed: SEED, numRuns: 1 })[0]!)
  await addRecords(tree)
  // Records without `date:`: every other event of the tree, a series, the lantern concert, the late show (never
  // committed), a venue and an organizer.
  const undated = [
    ...leakEvents(tree)
      .filter((_, i) => i % 2 === 0)
      .map((id) => `events/p${id}.en.md`),
    'events/weekly-melodi.en.md',
    'events/lantern.en.md',
    'events/late.en.md',
    `venues/p${tree.venues[0]}.en.md`,
    `organizers/p${tree.organizers[0]}.en.md`,
  ]
  for (const path of undated) await undate(path)
  // The repository is the content folder itself (`writableApp` copies it, `.git` and all). Linked records and terms
  // first, then half the events with the series, then the rest but the late show and the tree's last event; the
  // lantern concert is then edited and left so.
  content = join(tree.dir, 'content')
  git(['init', '-q'])
  const events = leakEvents(tree)
  const half = events.slice(0, Math.ceil(events.length / 2))
  const rest = events.slice(half.length, -1)
  const existing = new Set(await contentFiles())
  const add = (paths: string[]) => git(['add', '--', ...paths.filter((path) => existing.has(path))])
  add((await contentFiles()).filter((path) => !path.startsWith('events/')))
  git(['commit', '-q', '-m', 'places, people and terms'], { author: '2026-10-01T08:00:00Z', lag: 0 })
  add([...eventFiles(half), ...[...existing].filter((path) => /^events\/(weekly-melodi|every-third)/.test(path))])
  git(['commit', '-q', '-m', 'first events'], { author: '2026-10-20T12:00:00Z', lag: 20 * 3600 })
  add([...eventFiles(rest), ...[...existing].filter((path) => /^events\/(lantern|all-day)/.test(path))])
  git(['commit', '-q', '-m', 'more events'], { author: '2026-11-15T09:30:00Z', lag: 0 })
  const lantern = join(content, 'events/lantern.en.md')
  await writeFile(lantern, (await readFile(lantern, 'utf8')).replace('Lanterns and music', 'Lanterns, edited,'))
  base = await writableApp(tree.dir, options)
  content = base.content
  users = openUsers(join(base.dir, 'users.yaml'))
  initial = git(['rev-parse', 'HEAD']).trim()
  pristine = new Map()
  for (const path of await contentFiles()) pristine.set(path, await readFile(join(content, path), 'utf8'))
  compared = await comparison({
    running: () => app,
    fresh: freshApp,
    now: () => options.now!,
    seed: SEED,
    log: () => log,
  })
  // Git dates files the watcher read before it could a little later (src/content/store/dating.ts `redateLater`):
  // those timers fire when a run says so.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
}, 60_000)
afterAll(async () => {
  vi.useRealTimers()
  if (compared) await compared.close()
  for (const dir of [tree?.dir, base?.dir, home]) if (dir) await rm(dir, { recursive: true, force: true })
})

/**
 * Starts a run: the repository back at its first commits, the files never committed and the one edited written back,
 * every mtime pinned, no redate pending, and a new store and running app over it.
 */
async function startRun(): Promise<void> {
  vi.clearAllTimers()
  git(['reset', '-q', '--hard', initial])
  git(['clean', '-q', '-f', '-d'])
  for (const [path, text] of pristine) {
    const now = await readFile(join(content, path), 'utf8').catch(() => undefined)
    if (now !== text) await writeFile(join(content, path), text)
  }
  for (const path of await contentFiles()) await utimes(join(content, path), PINNED_MTIME / 1000, PINNED_MTIME / 1000)
  options.now = START
  store = await createStore(content, {
    defaultLanguage: 'en',
    fallback: true,
    assignIds: true,
    timezone: options.timezone!,
    now: () => options.now!,
  })
  // The running app is made as a fresh one, keeping answers: only its warm caches tell it apart.
  app = freshAppOver(store, users, options, true)
  quiet = quietStore(store)
}

/** An author date, and how much later (seconds) it was committed. */
interface When {
  author: string
  lag: number
}
const when = fc.record({
  author: fc.constantFrom(
    '2026-09-15T08:00:00Z',
    '2026-10-25T10:00:00Z',
    '2026-11-02T10:00:00Z',
    '2026-11-21T07:45:00Z',
    '2026-12-03T18:00:00Z',
    '2026-12-10T09:00:00Z',
  ),
  lag: fc.constantFrom(0, 0, 1, 3600, 3 * 86_400),
})

/** The events a request or a write may name. */
const eventIds = (t: LeakTree) => [...new Set([...t.events, SERIES, OPEN_SERIES, LANTERN, ALL_DAY, LATE, ...NEW])]
/** The events of the leak tree itself (`addRecords` adds its own to `tree.events`). */
const leakEvents = (t: LeakTree) => t.events.filter((id) => id < SERIES)
const DATE_FIELDS = 'id,date,date_utc,modified,modified_utc'

/** Feeds of many events: most changes of git's dates show in one. */
const broadFeeds = fc.constantFrom(
  'events.ics',
  'events.ics?start_date=2026-11-01&end_date=2027-02-01',
  'events.ics?start_date=now&end_date=2026-12-31',
  'events.ics?search=event',
  `events.ics?categories=1,${JAZZ}`,
  'events.ics?ml_language=ms',
  'events?ical=1',
  'categories/1/events.ics',
)

/** Requests git's dates show in: feeds (SEQUENCE, DTSTAMP, LAST-MODIFIED, CREATED), `date` and `modified` in JSON. */
function paths(t: LeakTree): fc.Arbitrary<string> {
  const language = fc.constantFrom('', '', '?ml_language=ms')
  const feeds = fc.oneof(broadFeeds, fc.constant(`events/${SERIES}?ical=1`))
  const eventFeeds = fc
    .tuple(fc.constantFrom(...eventIds(t), OCCURRENCES[0]!), language)
    .map(([id, lang]) => `events/${id}.ics${lang}`)
  const scoped = fc.constantFrom(
    ...[1, 2, JAZZ].map((id) => `categories/${id}/events.ics`),
    'tags/4/events.ics',
    ...t.venues.slice(0, 3).map((id) => `venues/${id}/events.ics`),
    ...t.organizers.slice(0, 3).map((id) => `organizers/${id}/events.ics`),
  )
  const lists = fc.constantFrom(
    'events',
    `events?_fields=${DATE_FIELDS}`,
    `events?start_date=2026-11-01&end_date=2027-02-01&per_page=50&_fields=${DATE_FIELDS},title`,
    'events?per_page=4&page=2',
    'events?status=publish,draft,pending,private',
    'events?search=lantern',
    `events?venue=${t.venues[0]}`,
    'venues',
    'organizers?_fields=id,date,modified',
  )
  const single = fc
    .tuple(
      fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...eventIds(t), ...OCCURRENCES).map((id) => `events/${id}`) },
        fc.constantFrom(...t.venues.map((id) => `venues/${id}`), ...t.organizers.map((id) => `organizers/${id}`)),
      ),
      fc.constantFrom('', '', `?_fields=${DATE_FIELDS}`, '?ml_language=ms'),
    )
    .map(([path, query]) => `${path}${query}`)
  return fc.oneof(
    { weight: 3, arbitrary: feeds },
    { weight: 3, arbitrary: eventFeeds },
    { weight: 2, arbitrary: scoped },
    { weight: 3, arbitrary: lists },
    { weight: 3, arbitrary: single },
  )
}

function askedSpec(t: LeakTree, path = paths(t)): fc.Arbitrary<Asked> {
  return fc
    .record({
      path,
      caller: fc.constantFrom<Caller>('anonymous', 'anonymous', 'anonymous', 'editor', 'editor'),
      prefix: fc.constantFrom('', '', '', '/ms'),
      method: fc.constantFrom<'GET' | 'HEAD'>('GET', 'GET', 'GET', 'HEAD'),
      origin: fc.constantFrom(undefined, undefined, 'https://a.example'),
    })
    .map(({ path, caller, prefix, method, origin }) => ({
      caller,
      path: prefix ? `${prefix}/wp-json/calendar/events/v1/${path}` : path,
      method,
      origin,
    }))
}

/** An edit of a file on disk, read back with `store.reload`. */
const diskEdit = fc.record({
  target: fc.nat(),
  folder: fc.constantFrom('events', 'events', 'events', 'venues', 'organizers'),
  edit: fc.constantFrom('title', 'title', 'body', 'dates', 'date', 'modified', 'delete', 'new', 'new'),
  n: fc.nat({ max: 99 }),
})
type DiskEdit = typeof diskEdit extends fc.Arbitrary<infer T> ? T : never

/** A write through the API, as an editor: the store writes the file (and dates it by git when git knows it). */
const write = fc.record({
  target: fc.nat(),
  change: fc.constantFrom<Record<string, unknown>>(
    { title: 'Changed by a write' },
    { description: 'Changed words, with jazz.' },
    { start_date: '2026-12-11 08:00:00', end_date: '2026-12-11 09:00:00' },
    { status: 'draft' },
  ),
})

function runs(t: LeakTree) {
  // A step's `around`: what of the pool the running app is asked before it, to warm its caches, and compared after.
  const change = <K extends string, T>(kind: K, what: fc.Arbitrary<T>) =>
    fc.record({ kind: fc.constant(kind), what, around: batchOf(1, 4) })
  const step = fc.oneof(
    { weight: 1, arbitrary: change('read', askedSpec(t)) },
    { weight: 4, arbitrary: change('disk', diskEdit) },
    { weight: 3, arbitrary: change('commit', fc.record({ all: fc.boolean(), target: fc.nat(), when })) },
    { weight: 1, arbitrary: change('amend', fc.record({ all: fc.boolean(), when })) },
    {
      weight: 1,
      arbitrary: change('rename', fc.record({ target: fc.nat(), commit: fc.option(when, { nil: undefined }) })),
    },
    { weight: 3, arbitrary: change('ask', fc.constant(null)) },
    { weight: 2, arbitrary: change('redate', fc.constant(null)) },
    { weight: 1, arbitrary: change('write', write) },
    { weight: 1, arbitrary: change('clock', clockMove) },
  )
  return fc.record({
    // Some feeds of many events, then requests of the whole space.
    pool: fc
      .tuple(
        fc.array(askedSpec(t, broadFeeds), { minLength: 1, maxLength: 3 }),
        fc.array(askedSpec(t), { minLength: 4, maxLength: 7 }),
      )
      .map(([broad, any]) => [...broad, ...any]),
    first: batchOf(2, 4),
    list: fc.array(step, { minLength: 6, maxLength: 18 }),
  })
}
type Run = ReturnType<typeof runs> extends fc.Arbitrary<infer T> ? T : never
type Step = Run['list'][number]

/** What a run did so far, for the failure message. */
let log: string[] = []
const counts = { runs: 0, steps: new Map<string, number>(), commits: 0 }

/** Pins a file the run wrote to the run's clock, as a save at that moment would. */
const touch = (path: string) => utimes(join(content, path), options.now! / 1000, options.now! / 1000)

/** The short name of HEAD and its dates, for the log. */
const head = () => git(['log', '-1', '--format=%h authored %aI committed %cI']).trim()

async function doDisk(d: DiskEdit): Promise<string> {
  if (d.edit === 'new') {
    const id = NEW[d.n % NEW.length]!
    const path = `events/new-${id}.en.md`
    const day = ['2026-12-09', '2026-12-12', '2026-12-20'][d.n % 3]
    const text = `---\nid: ${id}\ntitle: "New on disk ${d.n}"\nstatus: publish\nstart_date: ${day} 19:00:00\nend_date: ${day} 21:00:00\nvenue: [${tree.venues[d.n % tree.venues.length]}]\n---\nWritten by hand, ${d.n}.\n`
    await writeFile(join(content, path), text)
    await touch(path)
    return `disk new ${path} (no date) -> reload ${await store.reload([path])}`
  }
  const files = (await contentFiles()).filter((path) => path.startsWith(`${d.folder}/`))
  if (files.length === 0) return `disk: no file in ${d.folder}`
  const path = files[d.target % files.length]!
  const full = join(content, path)
  let text = await readFile(full, 'utf8')
  const line = (field: string, value: string) => {
    const pattern = new RegExp(`^${field}: .*$`, 'm')
    if (pattern.test(text)) text = text.replace(pattern, `${field}: ${value}`)
    else text = text.replace(/^---\n/, `---\n${field}: ${value}\n`)
  }
  let edit: string = d.edit
  if (d.edit === 'delete') await unlink(full)
  else {
    if (d.edit === 'dates' && /^start_date: /m.test(text)) {
      const day = ['2026-12-09', '2026-12-11', '2026-12-14'][d.n % 3]
      line('start_date', `${day} ${String(d.n % 24).padStart(2, '0')}:15:00`)
      line('end_date', `${day} 23:45:00`)
    } else if (d.edit === 'date') {
      // A date written down, or taken away: git (or the mtime) dates the record then.
      if (/^date: /m.test(text)) text = text.replace(/^date: .*\n/m, '')
      else line('date', `2026-11-${String(1 + (d.n % 28)).padStart(2, '0')} 08:00:00`)
      edit = /^date: /m.test(text) ? 'date written' : 'date taken away'
    } else if (d.edit === 'modified') {
      line('modified', `2026-${d.n % 2 === 0 ? '11' : '12'}-${String(1 + (d.n % 28)).padStart(2, '0')} 12:00:00`)
    } else if (d.edit === 'body') {
      text = `${text.trimEnd()}\n\nDisk words ${d.n}.\n`
    } else {
      edit = 'title'
      const field = { events: 'title', venues: 'venue', organizers: 'organizer' }[d.folder]!
      line(field, JSON.stringify(`Disk title ${d.n}`))
    }
    await writeFile(full, text)
    await touch(path)
  }
  const heard = await store.reload([path])
  return `disk ${edit} ${path}${edit === 'delete' ? '' : ` (now ${JSON.stringify(text.slice(0, 300))})`} -> reload ${heard}`
}

/** Commits everything, or one file (an empty commit when it has no change). */
async function doCommit(all: boolean, target: number, at: When): Promise<string> {
  let what = 'everything'
  if (all) git(['add', '-A', '.'])
  else {
    const tracked = git(['ls-files', '-z']).split('\0').filter(Boolean)
    const candidates = [...new Set([...(await contentFiles()), ...tracked])].sort()
    what = candidates[target % candidates.length]!
    git(['add', '-A', '--', what])
  }
  git(['commit', '-q', '--allow-empty', '-m', `commit ${what}`], at)
  counts.commits++
  return `git commit ${what} -> ${head()}`
}

async function doAmend(all: boolean, at: When): Promise<string> {
  if (all) git(['add', '-A', '.'])
  git(['commit', '-q', '--amend', '--no-edit', '--allow-empty', `--date=${at.author}`], at)
  counts.commits++
  return `git commit --amend${all ? ' (everything)' : ''} -> ${head()}`
}

/** Renames every file of an event the repository tracks (git mv), has the store read both names, maybe commits. */
async function doRename(target: number, at: When | undefined): Promise<string> {
  const onDisk = new Set(await contentFiles())
  const tracked = git(['ls-files', '-z', '--', 'events'])
    .split('\0')
    .filter((path) => onDisk.has(path))
  const stems = [...new Set(tracked.map((path) => path.slice(0, path.indexOf('.'))))].sort()
  if (stems.length === 0) return 'rename: no event tracked'
  const stem = stems[target % stems.length]!
  const moved: string[] = []
  for (const path of tracked.filter((path) => path.slice(0, path.indexOf('.')) === stem)) {
    const to = `${stem}-moved${path.slice(stem.length)}`
    git(['mv', '--', path, to])
    moved.push(path, to)
  }
  const heard = await store.reload(moved)
  let said = `git mv ${stem} ${stem}-moved (${moved.length / 2} files) -> reload ${heard}`
  if (at) {
    git(['commit', '-q', '-m', `rename ${stem}`], at)
    counts.commits++
    said += `; git commit -> ${head()}`
  }
  return said
}

async function doWrite(w: typeof write extends fc.Arbitrary<infer T> ? T : never): Promise<string> {
  const ids = eventIds(tree)
  const path = `events/${ids[w.target % ids.length]}`
  const answer = await call(app, path, json('POST', w.change, as('editor')))
  return `POST ${path} ${JSON.stringify(w.change)} -> ${answer.status}`
}

async function doStep(step: Step): Promise<string> {
  switch (step.kind) {
    case 'read':
      return `read ${compared.shown(step.what)}`
    case 'disk':
      return doDisk(step.what)
    case 'commit':
      return doCommit(step.what.all, step.what.target, step.what.when)
    case 'amend':
      return doAmend(step.what.all, step.what.when)
    case 'rename':
      return doRename(step.what.target, step.what.commit)
    case 'ask': {
      const before = store.version
      await store.askGit(true)
      return `store.askGit(true) -> version ${before} -> ${store.version}`
    }
    case 'redate': {
      // The watcher's late asks (0.5 s and 3 s after it read a file git could not date): every one pending fires,
      // and the store's queue is waited for.
      const before = store.version
      vi.advanceTimersByTime(3_000)
      await store.reload([])
      return `redates fired -> version ${before} -> ${store.version}`
    }
    case 'write':
      return doWrite(step.what)
    default: {
      options.now = movedClock(options.now!, step.what)
      const moved = await store.moveHorizon()
      return `clock ${step.what} -> ${new Date(options.now!).toISOString()}${moved ? ' (horizon moved)' : ''}`
    }
  }
}

describe.skipIf(noGit !== undefined)('a running app with warm caches, over a git repository', () => {
  // What the property found first, as two cases. Git is asked for its dates by `askGit` (a feed, once per store
  // version; `almanac serve`, each minute), and a change of them moved the store's version and the plain epoch (it
  // now settles again the records of the files whose dates moved). But
  // the store asks git itself too: `dateUndated` when a reloaded file without `date:` is one git does not know (a
  // new file, a file renamed), and `redateNow` when it asks again about such a file later (src/content/store/dating.ts).
  // Both call `dates.refresh()` and drop what it says: the commit dates move (`committedAt`), the store's version does
  // not move for them, and as git's HEAD is then logged, `askGit(true)` finds nothing new afterwards. A plain event's
  // VEVENT is kept by its record and the plain epoch (src/serialize/feed/plain-keys.ts), so the running app goes on
  // serving the lantern concert's SEQUENCE, DTSTAMP and LAST-MODIFIED of before its commit (2026-11-15), where a
  // fresh app shows the commit's (2026-11-21), until that event itself changes. docs/feeds.md §3 says a file whose
  // last commit moved counts as a change of its record, whoever asked git.
  const everything: Asked = { caller: 'anonymous', path: 'events.ics', method: 'GET', origin: undefined }
  const commitLantern = () =>
    git(['commit', '-q', '-m', 'lantern', '--', 'events/lantern.en.md'], { author: '2026-11-21T07:45:00Z', lag: 0 })
  it.each([
    [
      'a file git cannot date is read (a new file without `date:`)',
      async () => {
        commitLantern()
        await doDisk({ target: 0, folder: 'events', edit: 'new', n: 0 })
      },
    ],
    [
      'git is asked again about a file it could not date (redateLater)',
      async () => {
        await doDisk({ target: 0, folder: 'events', edit: 'new', n: 0 })
        commitLantern()
        vi.advanceTimersByTime(3_000)
        await store.reload([])
      },
    ],
  ])('shows a commit made after a feed was read once %s, as a fresh app does', async (_, change) => {
    await startRun()
    log = ['a case of its own']
    await compared.whole(app, everything)
    await change()
    expect(await compared.whole(app, everything)).toBe(await compared.whole(freshApp(), everything))
    // And asking git again, as `almanac serve` does each minute, does not mend it.
    await store.askGit(true)
    expect(await compared.whole(app, everything)).toBe(await compared.whole(freshApp(), everything))
  })

  it('answers byte for byte what a brand-new app answers, through edits on disk, commits, amends, renames, asks of git and time', async () => {
    const started = Date.now()
    await fc.assert(
      fc.asyncProperty(runs(tree), async ({ pool, first, list }) => {
        await startRun()
        log = [
          `at ${new Date(START).toISOString()} from ${initial.slice(0, 7)}, the pool: ${pool.map(compared.shown).join(' | ')}`,
        ]
        counts.runs++
        await compared.check(pool, first)
        for (const step of list) {
          counts.steps.set(step.kind, (counts.steps.get(step.kind) ?? 0) + 1)
          // A read warms the running app alone; before a change, the running app is asked what is compared after it.
          if (step.kind === 'read') await call(app, step.what.path, compared.initOf(step.what))
          else await compared.warm(pool, step.around)
          log.push(await doStep(step))
          if (step.kind !== 'read') await compared.check(pool, step.around)
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    )
    console.log(
      `fresh-app git property (seed ${SEED}): ${counts.runs} runs, steps ${tally(counts.steps)}, ${counts.commits} commits, ${compared.counts.compared} requests compared (${compared.counts.twice} asked twice; answers ${tally(compared.counts.statuses)}); ${Date.now() - started} ms`,
    )
    expect(counts.commits, `seed ${SEED}`).toBeGreaterThan(0)
  }, 300_000)
})

if (noGit !== undefined)
  describe('without git', () => {
    it.skip(`skips the property over git commit dates: \`git --version\` failed (${noGit}); CI has git`, () => {})
  })
