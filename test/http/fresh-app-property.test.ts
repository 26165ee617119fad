import { mkdir, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app.ts'
import { openUsers, type UserDirectory } from '../../src/auth/users.ts'
import type { Store } from '../../src/content/store.ts'
import { as, call, json, type TestAppOptions, writableApp } from '../helpers.ts'
import { type LeakTree, treeSpec, writeLeakTree } from '../routes/leak-tree.ts'
import { clockMove, movedClock } from './clock-moves.ts'
import {
  type Asked,
  batch,
  type Caller,
  comparison,
  freshAppOver,
  type Params,
  quietStore,
  some,
  tally,
  withQuery,
} from './fresh-app-compare.ts'
import { addRecords, JAZZ, LANTERN, OCCURRENCES, OPEN_SERIES, SERIES } from './fresh-app-tree.ts'

// Warm caches are never stale (docs/architecture.md §3, §9): over random runs of reads by every kind of caller,
// writes through the API as an editor, edits on disk read back with `store.reload` and moves of the clock, every
// answer of the running app (kept answers and its front door, the JSON memo and its plain epoch, the indexes'
// windows, set places, search matches, list matches, record orders, kept feeds and VEVENTs, Markdown, all warm) is
// byte for byte (status, headers, body) what a brand-new app over the same store and clock answers at that moment.
// answer-reuse-property compares two apps that both keep every cache but the kept answers, and asks them the same
// sequence, so a stale memo or index would be stale in both alike; here the app compared with is made anew for every
// request, so nothing of it is warm. Each run starts from the same tree and clock and keeps a pool of requests (some
// of the whole space, more that a change is likely to move), asked before and after each change, some twice, some
// right after a sibling (another Origin, method, caller or language), some with the ETag given before as
// If-None-Match, some over loopback sockets. A failure prints the run's every step and request. FC_SEED=<n> replays
// it (the seed also picks the tree); FC_RUNS sets the number of runs.
const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)
const RUNS = Number(process.env.FC_RUNS ?? 30)
const START = Date.parse('2026-12-10T10:30:00Z')

// A site ahead of UTC: its local midnight (16:00 UTC) and UTC's are different moments.
const options: TestAppOptions = { now: START, timezone: 'Asia/Kuala_Lumpur' }
let tree: LeakTree
let app: Awaited<ReturnType<typeof writableApp>>
/** The users of every fresh app: one directory, so each login pays its scrypt once. */
let users: UserDirectory
/** The content tree as loaded: every run starts from it again. */
let pristine: Map<string, string>
/** The store as a fresh app sees it: the same store, but a fresh app, thrown away after one request, hears no change. */
let quiet: Store
/** How the running app is compared with fresh ones (test/http/fresh-app-compare.ts). */
let compared: Awaited<ReturnType<typeof comparison>>

/** Every record file under the content folder (no dotfiles), relative to it. */
async function contentFiles(): Promise<string[]> {
  const entries = await readdir(app.content, { recursive: true, withFileTypes: true })
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(app.content.length + 1))
    .filter((path) => !path.split('/').some((part) => part.startsWith('.')))
    .sort()
}

beforeAll(async () => {
  tree = await writeLeakTree(fc.sample(treeSpec, { seed: SEED, numRuns: 1 })[0]!)
  await addRecords(tree)
  app = await writableApp(tree.dir, options)
  users = openUsers(join(app.dir, 'users.yaml'))
  quiet = quietStore(app.store)
  compared = await comparison({
    running: () => app,
    fresh: freshApp,
    now: () => options.now!,
    seed: SEED,
    log: () => log,
    resolve,
  })
  pristine = new Map()
  for (const path of await contentFiles()) pristine.set(path, await readFile(join(app.content, path), 'utf8'))
}, 60_000)
afterAll(async () => {
  if (compared) await compared.close()
  if (tree) await rm(tree.dir, { recursive: true, force: true })
  if (app) await rm(app.dir, { recursive: true, force: true })
})

/** A brand-new app over the same store, users and clock: nothing kept, nothing memoized, no index built yet. */
function freshApp(keeping: boolean): App {
  return freshAppOver(quiet, users, options, keeping)
}

/** Puts the tree back as it was loaded, and has the store read what changed. */
async function restoreTree(): Promise<void> {
  const changed: string[] = []
  for (const path of await contentFiles())
    if (!pristine.has(path)) {
      await unlink(join(app.content, path))
      changed.push(path)
    }
  for (const [path, text] of pristine) {
    const now = await readFile(join(app.content, path), 'utf8').catch(() => undefined)
    if (now !== text) {
      await mkdir(dirname(join(app.content, path)), { recursive: true })
      await writeFile(join(app.content, path), text)
      changed.push(path)
    }
  }
  if (changed.length > 0) await app.store.reload(changed)
}

const WORDS = [
  'event',
  'even',
  'description',
  'desc',
  'words',
  'excerpt',
  'acara',
  'terjemahan',
  'terj',
  'kata',
  'melodi',
  'lagu',
  'jazz',
  'lantern',
  'concert',
  'tanglung',
  'pasar malam',
  '音乐会',
  '灯笼',
  'changed',
  'disk',
  'zqaaaaax',
  'nothinglikeit',
]
const RELATIVE = ['now', 'today', 'tomorrow', 'yesterday', '+1 day', '+2 weeks', '-1 week', 'next monday']
const ABSOLUTE = ['2026-12-05', '2026-12-10', '2026-12-10 18:00:00', '2026-12-12 00:00:00', '2026-12-20', '2027-01-01']

/** The request space: lists of every kind with their filters, single records, feeds, the indexes. */
function paths(t: LeakTree): fc.Arbitrary<{ path: string; password?: boolean }> {
  const date = fc.constantFrom(...ABSOLUTE, ...RELATIVE)
  // One or two date arguments, each absolute or relative (more would mostly ask for nothing).
  const dates = some(
    {
      start_date: date,
      end_date: date,
      starts_after: date,
      starts_before: date,
      ends_after: date,
      ends_before: date,
      strict_dates: fc.constantFrom('true', 'false'),
    },
    2,
  )
  const ids = (list: number[]) => fc.constantFrom(...list.map(String))
  const common = {
    per_page: fc.integer({ min: 1, max: 50 }).map(String),
    page: fc.integer({ min: 1, max: 4 }).map(String),
    ml_language: fc.constantFrom('ms', 'zh-hans', 'en'),
    _envelope: fc.constant('1'),
    _pretty: fc.constant('1'),
  }
  const eventFilters = {
    ...common,
    search: fc.constantFrom(...WORDS),
    categories: fc.constantFrom('1', '2', '3', String(JAZZ), '1,2', 'music'),
    tags: fc.constantFrom('4', '5', '4,5'),
    venue: ids(t.venues.slice(0, 3)),
    organizer: ids(t.organizers.slice(0, 3)),
    featured: fc.constantFrom('true', 'false'),
    status: fc.constantFrom('publish', 'draft', 'publish,draft', 'pending,private', 'trash'),
    event_status: fc.constantFrom('cancelled', 'scheduled'),
    include: fc.constantFrom(...t.events.slice(0, 4).map(String), `${t.events[0]},${SERIES}`),
    _fields: fc.constantFrom(
      'id,title',
      'id,start_date,end_date',
      'total',
      'id,venue,categories,tags',
      'id,recurrence',
    ),
  }
  const events = fc
    .tuple(
      fc.oneof(
        { weight: 2, arbitrary: fc.constant({}) },
        fc.constant({ start_date: '2026-12-05', end_date: '2026-12-20' }),
        { weight: 4, arbitrary: dates },
      ),
      some(eventFilters, 4),
    )
    .map(([when, params]) => ({ path: withQuery('events', { ...when, ...params } as Params) }))
  const protectedEvents = fc
    .tuple(fc.constantFrom(...t.events), some({ per_page: common.per_page, search: eventFilters.search }, 1))
    .map(([id, params]) => ({ path: withQuery('events', { password: `pw-${id}`, ...params }), password: true }))
  const linkedFilters = {
    ...common,
    search: fc.constantFrom('venue', 'organizer', 'dewan', 'penganjur', 'renamed', 'city'),
    only_with_upcoming: fc.constantFrom('1', 'true', 'false'),
    has_events: fc.constantFrom('true', 'false'),
    status: fc.constantFrom('publish', 'draft', 'publish,draft'),
    event: ids(t.events.slice(0, 4)),
  }
  const linked = fc
    .tuple(fc.constantFrom('venues', 'organizers'), some(linkedFilters))
    .map(([kind, params]) => ({ path: withQuery(kind, params) }))
  const termFilters = {
    ...common,
    hide_empty: fc.constantFrom('true', 'false'),
    search: fc.constantFrom('music', 'mu', 'jazz', 'muzik', 'free', 'renamed'),
    include: fc.constantFrom('1,2', String(JAZZ), '4'),
    exclude: fc.constantFrom('1', '5'),
    order: fc.constantFrom('asc', 'desc'),
    orderby: fc.constantFrom('name', 'count', 'id', 'slug'),
    post: ids(t.events.slice(0, 4)),
    event: ids([SERIES, LANTERN]),
    slug: fc.constantFrom('music', 'jazz', 'free'),
    parent: fc.constantFrom('0', '1'),
  }
  const terms = fc
    .tuple(fc.constantFrom('categories', 'tags'), some(termFilters))
    .map(([kind, params]) => ({ path: withQuery(kind, params) }))
  const language = some({ ml_language: common.ml_language }, 1)
  const single = fc
    .tuple(
      fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...t.events, ...OCCURRENCES).map((id) => `events/${id}`) },
        fc.constant('events/{NEW}'),
        fc.constantFrom(...t.slugs.map(({ kind, slug }) => `${kind}/by-slug/${encodeURIComponent(slug)}`)),
        fc.constantFrom(...t.venues.map((id) => `venues/${id}`), ...t.organizers.map((id) => `organizers/${id}`)),
        fc.constantFrom(...t.categories.map((id) => `categories/${id}`), ...t.tags.map((id) => `tags/${id}`)),
      ),
      language,
    )
    .map(([path, params]) => ({ path: withQuery(path, params) }))
  const protectedSingle = fc
    .constantFrom(...t.events)
    .map((id) => ({ path: `events/${id}?password=pw-${id}`, password: true }))
  const feeds = fc.oneof(
    fc
      .tuple(fc.oneof(fc.constant({}), dates), some(eventFilters, 2))
      .map(([when, params]) => ({ path: withQuery('events.ics', { ...when, ...params } as Params) })),
    fc
      .tuple(fc.constantFrom(...t.events, OCCURRENCES[0]!), language)
      .map(([id, params]) => ({ path: withQuery(`events/${id}.ics`, params) })),
    fc
      .constantFrom(
        ...[1, 2, JAZZ].map((id) => `categories/${id}/events.ics`),
        'tags/4/events.ics',
        ...t.venues.slice(0, 2).map((id) => `venues/${id}/events.ics`),
        ...t.organizers.slice(0, 2).map((id) => `organizers/${id}/events.ics`),
        'events?ical=1',
        `events/${SERIES}?ical=1`,
      )
      .map((path) => ({ path })),
  )
  const index = fc
    .constantFrom('/wp-json/', '/wp-json/calendar/events/v1/', '/wp-json/calendar/events/v1/doc', 'diagnostics')
    .map((path) => ({ path }))
  return fc.oneof(
    { weight: 8, arbitrary: events },
    { weight: 1, arbitrary: protectedEvents },
    { weight: 2, arbitrary: linked },
    { weight: 2, arbitrary: terms },
    { weight: 4, arbitrary: single },
    { weight: 1, arbitrary: protectedSingle },
    { weight: 2, arbitrary: feeds },
    { weight: 1, arbitrary: index },
  )
}

/**
 * Requests a write or an edit on disk is likely to change the answer of: searches for the words the tree holds and
 * the writes write, each category, tag, venue and organizer as a filter, single reads, term counts, venue and
 * organizer lists, feeds, over windows that hold the tree. A run's pool holds some, asked before and after a change.
 */
const FOCUS_WORDS = [
  'event',
  'changed',
  'chan',
  'tukar',
  'melodi',
  'jazz',
  'description',
  'disk',
  'lagu',
  'words',
  '新歌',
  '音乐会',
  'acara',
  'kata',
  'excerpt',
  'new',
  'fresh',
  'pasar',
]
function focused(t: LeakTree): fc.Arbitrary<{ path: string; password?: boolean }> {
  const window = fc.constantFrom<Params>(
    {},
    {},
    { start_date: '2026-11-01', end_date: '2027-02-01' },
    { start_date: 'today' },
    { ends_after: 'now' },
  )
  const list = (path: string, filter: fc.Arbitrary<Params>) =>
    fc
      .tuple(
        filter,
        window,
        some(
          {
            per_page: fc.constantFrom('3', '50'),
            page: fc.constantFrom('2'),
            _fields: fc.constantFrom('id,title,categories,venue'),
          },
          1,
        ),
      )
      .map(([a, b, c]) => ({ path: withQuery(path, { ...a, ...b, ...c }) }))
  const one = (key: string, values: (string | number)[]) =>
    fc.constantFrom(...values.map((v) => ({ [key]: String(v) })))
  const events = t.events
  return fc.oneof(
    { weight: 4, arbitrary: list('events', one('search', FOCUS_WORDS)) },
    list('events', one('categories', t.categories)),
    list('events', one('tags', t.tags)),
    list('events', one('venue', t.venues)),
    list('events', one('organizer', t.organizers)),
    list('events', fc.constantFrom<Params>({}, { featured: 'true' }, { status: 'publish,draft,pending,private' })),
    {
      weight: 2,
      arbitrary: fc.constantFrom(...events, ...OCCURRENCES, '{NEW}').map((id) => ({ path: `events/${id}` })),
    },
    fc.constantFrom(SERIES, OPEN_SERIES, ...OCCURRENCES).map((id) => ({ path: `events/${id}` })),
    fc.constantFrom(
      ...t.slugs
        .filter((s) => s.kind === 'events')
        .map((s) => ({ path: `events/by-slug/${encodeURIComponent(s.slug)}` })),
      { path: 'events/by-slug/changed-slug' },
      { path: 'categories?slug=renamed-slug' },
      { path: 'venues?search=inline' },
    ),
    fc
      .constantFrom(
        ...['categories', 'tags'].flatMap((kind) => [
          `${kind}?hide_empty=true`,
          kind,
          `${kind}?orderby=count&order=desc`,
        ]),
        ...t.categories.map((id) => `categories/${id}`),
        ...t.tags.map((id) => `tags/${id}`),
        ...['venues', 'organizers'].flatMap((kind) => [
          kind,
          `${kind}?only_with_upcoming=1`,
          `${kind}?has_events=true`,
          `${kind}?search=disk`,
          `${kind}?search=renamed`,
        ]),
        ...t.venues.map((id) => `venues/${id}`),
        ...t.organizers.map((id) => `organizers/${id}`),
      )
      .map((path) => ({ path })),
    fc.oneof(
      fc.constantFrom(...FOCUS_WORDS).map((word) => ({ path: `events.ics?search=${encodeURIComponent(word)}` })),
      fc
        .constantFrom(
          'events.ics',
          'events.ics?start_date=2026-12-01',
          ...t.categories.map((id) => `categories/${id}/events.ics`),
          ...t.venues.slice(0, 3).map((id) => `venues/${id}/events.ics`),
          ...events.map((id) => `events/${id}.ics`),
        )
        .map((path) => ({ path })),
    ),
    fc.constantFrom(...events).map((id) => ({ path: `events/${id}?password=pw-${id}`, password: true })),
    // What the clock moves: relative dates (`today` and `tomorrow` turn at the site's midnight, `now` every second)
    // with the other bound given or not, lists and feeds; series, which list their next occurrences; the indexes.
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(
          'events?end_date=tomorrow',
          'events?start_date=today&end_date=2026-12-31',
          'events?start_date=now&end_date=2026-12-31',
          'events?starts_after=now&ends_before=2026-12-20',
          'events?ends_after=now&per_page=3',
          'events.ics?end_date=tomorrow',
          'events.ics?start_date=2026-12-01&end_date=today',
          'events.ics?start_date=now&end_date=2026-12-31',
          'events.ics?starts_after=yesterday&end_date=2026-12-31',
          `events/${SERIES}`,
          `events/${OPEN_SERIES}`,
          `events/${OPEN_SERIES}.ics`,
          '/wp-json/calendar/events/v1/',
        )
        .map((path) => ({ path })),
    },
  )
}

function askedSpec(
  t: LeakTree,
  at: fc.Arbitrary<{ path: string; password?: boolean }> = paths(t),
): fc.Arbitrary<Asked> {
  return fc
    .record({
      at,
      caller: fc.oneof(
        { weight: 5, arbitrary: fc.constant<Caller>('anonymous') },
        { weight: 3, arbitrary: fc.constantFrom<Caller>('admin', 'editor', 'author', 'contributor', 'subscriber') },
      ),
      prefix: fc.constantFrom('', '', '', '/ms', '/zh-hans'),
      method: fc.constantFrom<'GET' | 'HEAD'>('GET', 'GET', 'GET', 'GET', 'HEAD'),
      origin: fc.constantFrom(undefined, undefined, 'https://a.example'),
    })
    .map(({ at, caller, prefix, method, origin }) => ({
      // A password is asked without signing in.
      caller: at.password ? 'anonymous' : caller,
      path: prefix && !at.path.startsWith('/') ? `${prefix}/wp-json/calendar/events/v1/${at.path}` : at.path,
      method,
      origin,
    }))
}

const DAYS = ['2026-12-09', '2026-12-10', '2026-12-11', '2026-12-14', '2027-01-02']

/** A write through the API, as an editor. `target` picks among the events known now (the tree's and those created). */
const write = fc.oneof(
  fc.record({
    kind: fc.constant('create' as const),
    day: fc.constantFrom(...DAYS),
    title: fc.constantFrom('Fresh Gig', 'Pasar Malam Baru', '新年音乐会', 'Jazz Brunch'),
    body: some(
      {
        categories: fc.constantFrom('1', String(JAZZ), '2,3'),
        status: fc.constantFrom('publish', 'draft', 'pending'),
        password: fc.constant('pw-new'),
        description: fc.constantFrom('New words, melodi and lagu.', '全新的音乐会。'),
        featured: fc.constant('true'),
      },
      3,
    ),
    venue: fc.option(fc.oneof(fc.nat(), fc.constant('inline' as const)), { nil: undefined }),
  }),
  fc.record({
    kind: fc.constant('update' as const),
    target: fc.nat(),
    lang: fc.constantFrom('', '', 'ms', 'zh-hans'),
    change: fc.oneof(
      fc.constantFrom<Record<string, unknown>>(
        { title: 'Changed by a write' },
        { title: 'Tukar tajuk melodi' },
        { description: 'A description changed, with jazz.' },
        { description: '1. Changed *lagu*\n2. [melodi](https://example.com/m)\n\n```\ncode\n```' },
        { excerpt: 'New excerpt words' },
        { status: 'draft' },
        { status: 'publish' },
        { status: 'private' },
        { password: 'pw-changed' },
        { password: '' },
        { featured: true },
        { slug: 'changed-slug' },
        { featured: false },
        { categories: [2] },
        { organizer: [] },
        { all_day: true },
        { timezone: 'UTC' },
        { categories: [JAZZ, 3] },
        { categories: [] },
        { tags: [4] },
        { start_date: '2026-12-10 15:00:00', end_date: '2026-12-10 17:00:00' },
        { start_date: '2026-12-11 08:00:00', end_date: '2026-12-11 09:00:00' },
        { start_date: '2026-12-30 20:00:00', end_date: '2026-12-30 23:00:00' },
        { start_date: '2026-12-09 08:00:00', end_date: '2026-12-09 09:00:00', timezone: 'Asia/Kuala_Lumpur' },
      ),
      fc.nat().map((n) => ({ venue: n })),
      fc.nat().map((n) => ({ organizer: n })),
    ),
  }),
  fc.record({ kind: fc.constant('delete' as const), target: fc.nat(), force: fc.boolean() }),
  // A venue, organizer or term deleted: taken out of every event that names it, in one transaction.
  fc.record({
    kind: fc.constant('remove' as const),
    which: fc.constantFrom('venues', 'organizers', 'categories', 'tags'),
    target: fc.nat(),
    force: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('linked' as const),
    which: fc.constantFrom('venues', 'organizers'),
    target: fc.nat(),
    change: fc.oneof(
      {
        weight: 3,
        arbitrary: fc.constantFrom('Renamed place', 'Dewan Baharu', 'Renamed host').map((name) => ({ name })),
      },
      fc.constantFrom<Record<string, string>>({ status: 'draft' }, { status: 'publish' }, { city: 'Disk City' }),
    ),
  }),
  fc.record({
    kind: fc.constant('term' as const),
    which: fc.constantFrom('categories', 'tags'),
    target: fc.nat(),
    change: fc.oneof(
      {
        weight: 3,
        arbitrary: fc.constantFrom('Renamed Music', 'Muzik Baharu', 'Renamed Free').map((name) => ({ name })),
      },
      fc.constantFrom<Record<string, unknown>>(
        { parent: 2 },
        { parent: 0 },
        { slug: 'renamed-slug' },
        { description: 'Changed words' },
      ),
    ),
    lang: fc.constantFrom('', 'ms'),
  }),
)

/** An edit of a file on disk, read back with `store.reload`. */
const diskEdit = fc.record({
  target: fc.nat(),
  folder: fc.constantFrom('events', 'events', 'events', 'venues', 'organizers', 'categories', 'tags'),
  edit: fc.constantFrom('title', 'title', 'dates', 'body', 'status', 'categories', 'delete'),
  n: fc.nat({ max: 99 }),
})

function moveClock(move: number | string): void {
  options.now = movedClock(options.now!, move)
}

function runs(t: LeakTree) {
  const step = fc.oneof(
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('read' as const), asked: askedSpec(t) }) },
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('write' as const), write, around: batch }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('disk' as const), disk: diskEdit, around: batch }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('clock' as const), move: clockMove, around: batch }) },
  )
  return fc.record({
    // What a run asks: requests of the whole space, then requests a change is likely to move.
    pool: fc
      .tuple(
        fc.array(askedSpec(t), { minLength: 2, maxLength: 6 }),
        fc.array(askedSpec(t, focused(t)), { minLength: 4, maxLength: 8 }),
      )
      .map(([some, likely]) => [...some, ...likely]),
    first: batch,
    list: fc.array(fc.record({ step, after: batch }), { minLength: 2, maxLength: 9 }),
  })
}

/** What a run did so far, for the failure message. */
let log: string[] = []
/** Events created in this run, newest last. */
let created: number[] = []
const counts = {
  runs: 0,
  steps: 0,
  writes: new Map<string, number>(),
  disk: 0,
}

const resolve = (path: string) => path.replace('{NEW}', String(created.at(-1) ?? 99_999))

/** The events a write may name now: the tree's, then those this run created. */
const eventsNow = () => [...tree.events, ...OCCURRENCES, ...created]

type Write = typeof write extends fc.Arbitrary<infer T> ? T : never
async function doWrite(w: Write): Promise<string> {
  const editor = as('editor')
  let answer: Awaited<ReturnType<typeof call>>
  let what: string
  if (w.kind === 'create') {
    const body: Record<string, unknown> = {
      title: w.title,
      start_date: `${w.day} 19:00:00`,
      end_date: `${w.day} 21:00:00`,
      status: 'publish',
    }
    for (const [key, value] of Object.entries(w.body))
      body[key] = key === 'categories' ? value.split(',').map(Number) : key === 'featured' ? true : value
    if (w.venue === 'inline') body.venue = { venue: 'Inline Hall', city: 'Bandar' }
    else if (w.venue !== undefined) body.venue = tree.venues[w.venue % tree.venues.length]
    what = `POST events ${JSON.stringify(body)}`
    answer = await call(app, 'events', json('POST', body, editor))
    if (answer.status === 201 || answer.status === 200) created.push(answer.body.id)
  } else if (w.kind === 'update') {
    const events = eventsNow()
    const id = events[w.target % events.length]
    const change =
      'venue' in w.change && typeof w.change.venue === 'number'
        ? { venue: tree.venues[w.change.venue % tree.venues.length] }
        : 'organizer' in w.change && typeof w.change.organizer === 'number'
          ? { organizer: [tree.organizers[w.change.organizer % tree.organizers.length]] }
          : w.change
    const path = `events/${id}${w.lang ? `?ml_language=${w.lang}` : ''}`
    what = `POST ${path} ${JSON.stringify(change)}`
    answer = await call(app, path, json('POST', change, editor))
  } else if (w.kind === 'delete') {
    const events = eventsNow()
    const path = `events/${events[w.target % events.length]}${w.force ? '?force=true' : ''}`
    what = `DELETE ${path}`
    answer = await call(app, path, { method: 'DELETE', headers: editor })
  } else if (w.kind === 'remove') {
    const list = { venues: tree.venues, organizers: tree.organizers, categories: tree.categories, tags: tree.tags }[
      w.which
    ]
    const path = `${w.which}/${list[w.target % list.length]}${w.force ? '?force=true' : ''}`
    what = `DELETE ${path}`
    answer = await call(app, path, { method: 'DELETE', headers: editor })
  } else if (w.kind === 'linked') {
    const list = w.which === 'venues' ? tree.venues : tree.organizers
    const path = `${w.which}/${list[w.target % list.length]}`
    // A venue's write needs its name, an organizer's its name too (WordPress's required `venue`, `organizer`).
    const name = w.which === 'venues' ? 'venue' : 'organizer'
    const current = app.store.get(w.which, list[w.target % list.length]!)?.source.data[name]
    const body = 'name' in w.change ? { [name]: w.change.name } : { [name]: current ?? 'Renamed', ...w.change }
    what = `POST ${path} ${JSON.stringify(body)}`
    answer = await call(app, path, json('POST', body, editor))
  } else {
    const list = w.which === 'categories' ? tree.categories : tree.tags
    const path = `${w.which}/${list[w.target % list.length]}${w.lang ? `?ml_language=${w.lang}` : ''}`
    // `parent` is for categories alone.
    const change = w.which === 'tags' && 'parent' in w.change ? { name: 'Renamed Free' } : w.change
    what = `POST ${path} ${JSON.stringify(change)}`
    answer = await call(app, path, json('POST', change, editor))
  }
  const key = `${w.kind} ${answer.status}`
  counts.writes.set(key, (counts.writes.get(key) ?? 0) + 1)
  return `${what} -> ${answer.status}`
}

type DiskEdit = typeof diskEdit extends fc.Arbitrary<infer T> ? T : never
const NAME_FIELD: Record<string, string> = {
  events: 'title',
  venues: 'venue',
  organizers: 'organizer',
  categories: 'name',
  tags: 'name',
}
async function doDisk(d: DiskEdit): Promise<string> {
  const files = (await contentFiles()).filter((path) => path.startsWith(`${d.folder}/`))
  if (files.length === 0) return `disk: no file in ${d.folder}`
  const path = files[d.target % files.length]!
  const full = join(app.content, path)
  let text = await readFile(full, 'utf8')
  const line = (field: string, value: string) => {
    const pattern = new RegExp(`^${field}: .*$`, 'm')
    if (pattern.test(text)) text = text.replace(pattern, `${field}: ${value}`)
    return pattern.test(text)
  }
  let edit: string = d.edit
  if (d.edit === 'delete') await unlink(full)
  else {
    if (d.edit === 'dates' && d.folder === 'events' && /^start_date: /m.test(text)) {
      const day = DAYS[d.n % DAYS.length]
      line('start_date', `${day} ${String(d.n % 24).padStart(2, '0')}:15:00`)
      line('end_date', `${day} 23:45:00`)
    } else if (d.edit === 'status' && /^status: /m.test(text)) {
      line('status', d.n % 2 === 0 ? 'draft' : 'publish')
    } else if (d.edit === 'categories' && d.folder === 'events' && /^status: /m.test(text)) {
      if (!line('categories', `[${[1, 2, 3, JAZZ][d.n % 4]}]`))
        text = text.replace(/^status: /m, `categories: [${1 + (d.n % 3)}]\nstatus: `)
    } else if (d.edit === 'body') {
      text =
        d.n % 2 === 0
          ? `${text.trimEnd()}\n\nDisk words ${d.n}, lagu ${d.n} and 新歌${d.n}.\n`
          : `${text.trimEnd()}\n\n- Disk words ${d.n}\n- **lagu** [site](https://example.com/${d.n})\n\n> 新歌${d.n}\n`
    } else {
      edit = 'title'
      if (!line(NAME_FIELD[d.folder]!, JSON.stringify(`Disk title ${d.n}`)))
        text = text.replace(/^---\n/, `---\n${NAME_FIELD[d.folder]}: "Disk title ${d.n}"\n`)
    }
    await writeFile(full, text)
  }
  const heard = await app.store.reload([path])
  counts.disk++
  return `disk ${edit} ${path}${edit === 'delete' ? '' : ` (now ${JSON.stringify(text.slice(0, 400))})`} -> reload ${heard}`
}

describe('a running app with warm caches', () => {
  // What the property found first, as one case: a kept feed (src/routes/feeds.ts `answer`, kept in
  // src/serialize/feed/kept-feeds.ts) is keyed by the UTC day and the query's arguments as written, so a feed whose
  // dates are relative (`now`, `today`, `tomorrow`…) is served again all day, after `now` has passed an event's end
  // or the site's midnight (16:00 UTC here) has turned `today`. The Late Show ends at 01:00 on 11 December in Kuala
  // Lumpur (17:00 UTC on the 10th).
  it.each([
    ['events.ics?start_date=now&end_date=2026-12-31', '2026-12-10T10:30:00Z', '2026-12-10T17:30:00Z'],
    ['events.ics?end_date=tomorrow', '2026-12-09T10:30:00Z', '2026-12-09T16:00:00Z'],
    ['events.ics?start_date=2026-12-01&end_date=today', '2026-12-10T10:30:00Z', '2026-12-10T17:30:00Z'],
  ])('keeps no feed past what its relative dates name: %s asked at %s, then at %s', async (path, before, after) => {
    await restoreTree()
    const anonymous: Asked = { caller: 'anonymous', path, method: 'GET', origin: undefined }
    options.now = Date.parse(before)
    await compared.whole(app, anonymous)
    options.now = Date.parse(after)
    expect(await compared.whole(app, anonymous)).toBe(await compared.whole(freshApp(false), anonymous))
  })

  it('answers byte for byte what a brand-new app over the same store and clock answers, through writes, edits on disk, callers and time', async () => {
    const started = Date.now()
    await fc.assert(
      fc.asyncProperty(runs(tree), async ({ pool, first, list }) => {
        await restoreTree()
        options.now = START
        log = [`at ${new Date(START).toISOString()}, the pool: ${pool.map(compared.shown).join(' | ')}`]
        created = []
        counts.runs++
        await compared.check(pool, first)
        for (const { step, after } of list) {
          counts.steps++
          if (step.kind === 'read') {
            log.push(`read ${compared.shown(step.asked)}`)
            await call(app, resolve(step.asked.path), compared.initOf(step.asked))
          } else if (step.kind === 'clock') {
            // Warm the running app on what is asked after the move, as before a change.
            await compared.warm(pool, step.around)
            moveClock(step.move)
            // As a server does from time to time: open-ended series are served up to the horizon the clock gives.
            const moved = await app.store.moveHorizon()
            log.push(`clock ${step.move} -> ${new Date(options.now!).toISOString()}${moved ? ' (horizon moved)' : ''}`)
            await compared.check(pool, step.around)
          } else {
            // Warm the running app on what is asked after the change, so that its caches meet it.
            await compared.warm(pool, step.around)
            log.push(step.kind === 'write' ? await doWrite(step.write) : await doDisk(step.disk))
            await compared.check(pool, step.around)
          }
          await compared.check(pool, after)
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    )
    console.log(
      `fresh-app property (seed ${SEED}): ${counts.runs} runs, ${counts.steps} steps, ${compared.counts.compared} requests compared (${compared.counts.twice} asked twice; answers ${tally(compared.counts.statuses)}), ${counts.disk} edits on disk, writes ${tally(counts.writes)}; kept answers served ${app.answers!.hits}; ${Date.now() - started} ms`,
    )
    expect(app.answers!.hits, `seed ${SEED}`).toBeGreaterThan(0)
  }, 300_000)
})
