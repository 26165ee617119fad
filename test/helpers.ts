import { readdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { type App, type AppOptions, createApp } from '../src/app.ts'
import type { UserDirectory } from '../src/auth/users.ts'
import { createStore, type Problem, type Store } from '../src/content/store.ts'
import type { BuildOptions } from '../src/prerender/site-builder.ts'
import type { Lang } from '../src/languages.ts'
import type { Site } from '../src/context/site.ts'

/** The instant the reference samples were captured: 2026-11-22 02:08:30 UTC. */
export const SAMPLE_NOW = Date.parse('2026-11-22T02:08:30Z')

export const FIXTURES = resolve(import.meta.dirname, 'fixtures')

export interface TestAppOptions {
  timezone?: string
  defaultLang?: Lang
  fallback?: boolean
  now?: number
  perPage?: number
  maxPerPage?: number
}

/** A site like the reference instance's: http://127.0.0.1:8089, UTC. */
export function testSite(options: TestAppOptions = {}): Site {
  return {
    url: 'http://127.0.0.1:8089',
    host: '127.0.0.1',
    apiRoot: '/wp-json',
    timezone: options.timezone ?? 'UTC',
    defaultLang: options.defaultLang ?? 'en',
    currency: 'USD',
    currencySymbol: '$',
    currencyPosition: 'prefix',
  }
}

/** Loads a fixture tree and builds the app over it, in-process. */
export function fixtureApp(
  name: string,
  options: TestAppOptions = {},
): Promise<App & { problems: Problem[]; store: Store }> {
  return appOver(resolve(FIXTURES, name, 'content'), options)
}

/** The app over a content folder, as the tests use it: a pinned clock, the test site, problems collected. */
async function appOver(content: string, options: TestAppOptions, users?: UserDirectory, assignIds = false) {
  const problems: Problem[] = []
  const store = await createStore(content, {
    defaultLanguage: options.defaultLang ?? 'en',
    fallback: options.fallback ?? true,
    onProblem: (problem) => problems.push(problem),
    assignIds,
    timezone: options.timezone ?? 'UTC',
    now: () => options.now ?? SAMPLE_NOW,
  })
  const app = createApp({
    store,
    site: testSite(options),
    perPage: options.perPage ?? 9,
    maxPerPage: options.maxPerPage ?? 50,
    fallback: options.fallback ?? true,
    ...(users ? { users } : {}),
    now: () => options.now ?? SAMPLE_NOW,
    log: () => {},
  })
  return Object.assign(app, { problems, store })
}

/** Sends a request to the app in-process; `path` is relative to the namespace unless it starts with `/`. */
export async function call(app: App, path: string, init: RequestInit = {}) {
  const url = path.startsWith('/')
    ? `http://127.0.0.1:8089${path}`
    : `http://127.0.0.1:8089/wp-json/calendar/events/v1/${path}`
  const response = await app.fetch(new Request(url, init))
  const text = await response.text()
  const json = response.headers.get('content-type')?.startsWith('application/json') && text !== ''
  return { status: response.status, headers: response.headers, text, body: json ? (JSON.parse(text) as any) : null }
}

export const ROLE_PASSWORDS = {
  admin: 'admin-pass-0001',
  editor: 'editor-pass-0002',
  author: 'author-pass-0003',
  contributor: 'contrib-pass-0004',
  subscriber: 'subscr-pass-0005',
} as const

export type Login = keyof typeof ROLE_PASSWORDS

/** `Authorization` for a user of `writableApp` (ids: admin 1, editor 2, author 3, contributor 4, subscriber 5). */
export function as(login: Login, password: string = ROLE_PASSWORDS[login]): Record<string, string> {
  return { Authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` }
}

/** A JSON write request for `call`. */
export function json(method: string, body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'Content-Type': 'application/json', ...headers },
  }
}

const usersFiles = new Map<string, string>()

/** A fixture copied to a temporary folder, with a user of every role, ready for writes. */
export async function writableApp(name: string, options: TestAppOptions = {}) {
  const { cp, mkdtemp, writeFile } = await import('node:fs/promises')
  const { tmpdir } = await import('node:os')
  const { join } = await import('node:path')
  const { openUsers } = await import('../src/auth/users.ts')
  const dir = await mkdtemp(join(tmpdir(), 'almanac-write-'))
  await cp(resolve(FIXTURES, name, 'content'), join(dir, 'content'), { recursive: true })
  // Hashing is slow on purpose; one users file is made once and copied for every app.
  let users = usersFiles.get('all')
  if (!users) {
    const directory = openUsers(join(dir, 'seed-users.yaml'))
    const roles = {
      admin: 'administrator',
      editor: 'editor',
      author: 'author',
      contributor: 'contributor',
      subscriber: 'subscriber',
    } as const
    for (const login of Object.keys(ROLE_PASSWORDS) as Login[])
      directory.add(login, roles[login], ROLE_PASSWORDS[login])
    const { readFile } = await import('node:fs/promises')
    users = await readFile(join(dir, 'seed-users.yaml'), 'utf8')
    usersFiles.set('all', users)
  }
  await writeFile(join(dir, 'users.yaml'), users)
  const app = await appOver(join(dir, 'content'), options, openUsers(join(dir, 'users.yaml')), true)
  return Object.assign(app, { dir, content: join(dir, 'content') })
}

/** A test build of `store` into `out`: the test site, a CDN address, the default page sizes, the sample clock, no workers. */
export function buildOptions(store: Store, out: string, more: Partial<BuildOptions> = {}): BuildOptions {
  return {
    store,
    site: testSite(),
    out,
    publicUrl: 'https://cdn.example.org',
    perPage: 9,
    maxPerPage: 50,
    now: () => SAMPLE_NOW,
    workers: 0,
    ...more,
  }
}

/**
 * The app tests use over a store of their own: the test site, the default page sizes, the sample clock, no log;
 * `more` adds or overrides options (a users file, the answers it keeps).
 */
export function testApp(store: Store, more: Partial<AppOptions> = {}) {
  return createApp({
    store,
    site: testSite(),
    perPage: 9,
    maxPerPage: 50,
    fallback: true,
    now: () => SAMPLE_NOW,
    log: () => {},
    ...more,
  })
}

/** Every file under `dir`, as paths relative to it, sorted. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort()
}

/** The longest the event loop went without turning while `work` ran (ms, timed every millisecond), and its result. */
export async function longestBlock<T>(work: () => Promise<T>): Promise<[number, T]> {
  let longest = 0
  let last = performance.now()
  const timer = setInterval(() => {
    const now = performance.now()
    longest = Math.max(longest, now - last)
    last = now
  }, 1)
  try {
    const result = await work()
    await new Promise((resolve) => setTimeout(resolve, 5))
    return [longest, result]
  } finally {
    clearInterval(timer)
  }
}
