import { createHash } from 'node:crypto'
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { createApp, type App } from '../../src/app.ts'
import { openUsers, type UserDirectory } from '../../src/auth/users.ts'
import { checkContent } from '../../src/content/check.ts'
import { createStore, type Problem } from '../../src/content/store.ts'
import { SAMPLE_NOW, testSite } from '../helpers.ts'

/** The users of a stateful run: two of every role, so that ownership matters. Ids follow this order. */
export const USERS = [
  { login: 'admin', role: 'administrator' },
  { login: 'editor', role: 'editor' },
  { login: 'author', role: 'author' },
  { login: 'contributor', role: 'contributor' },
  { login: 'subscriber', role: 'subscriber' },
  { login: 'admin2', role: 'administrator' },
  { login: 'editor2', role: 'editor' },
  { login: 'author2', role: 'author' },
  { login: 'contributor2', role: 'contributor' },
  { login: 'subscriber2', role: 'subscriber' },
] as const

export type Role = (typeof USERS)[number]['role']
export interface User {
  id: number
  login: string
  role: Role
}

/** Every user with the id the users file gives it (1, 2, … in the order above). */
export const USER_LIST: User[] = USERS.map((user, i) => ({ id: i + 1, login: user.login, role: user.role }))

const password = (login: string) => `${login}-pass-0001`

/** The `Authorization` header of a user; none for anonymous callers. */
export function authOf(user: User | null): Record<string, string> {
  if (!user) return {}
  return { Authorization: `Basic ${Buffer.from(`${user.login}:${password(user.login)}`).toString('base64')}` }
}

let shared: { dir: string; file: string; directory: UserDirectory } | undefined

/**
 * One users file and directory for every run of a test file: hashing is slow on purpose, and the
 * directory remembers verified credentials, so each user pays scrypt once, not once per run.
 */
async function sharedUsers(): Promise<{ file: string; directory: UserDirectory }> {
  if (!shared) {
    const dir = await mkdtemp(join(tmpdir(), 'almanac-model-users-'))
    const file = join(dir, 'users.yaml')
    const directory = openUsers(file)
    for (const user of USERS) directory.add(user.login, user.role, password(user.login))
    shared = { dir, file, directory }
  }
  return shared
}

/** Removes the shared users file (after the last run of a test file). */
export async function closeUsers(): Promise<void> {
  if (shared) await rm(shared.dir, { recursive: true, force: true })
  shared = undefined
}

/** An app over a content folder, as `serve` would build it, with the test clock and site. */
export async function appOver(content: string, users: UserDirectory): Promise<App & { problems: Problem[] }> {
  const problems: Problem[] = []
  const store = await createStore(content, {
    defaultLanguage: 'en',
    fallback: true,
    onProblem: (p) => problems.push(p),
    assignIds: true,
  })
  const app = createApp({
    store,
    site: testSite(),
    perPage: 9,
    maxPerPage: 50,
    fallback: true,
    users,
    now: () => SAMPLE_NOW,
    log: () => {},
  })
  return Object.assign(app, { problems, store })
}

export interface Running {
  app: App & { problems: Problem[] }
  dir: string
  content: string
  users: UserDirectory
}

/** The tree every run starts from: the reference fixture plus records of other owners and statuses. */
export const MODEL_FIXTURE = resolve(import.meta.dirname, 'fixture', 'content')

/** A temporary copy of a content tree, with the users above, and the app over it. */
export async function startRun(tree: string = MODEL_FIXTURE): Promise<Running> {
  const dir = await mkdtemp(join(tmpdir(), 'almanac-model-'))
  const content = join(dir, 'content')
  await cp(tree, content, { recursive: true })
  const { directory } = await sharedUsers()
  return { app: await appOver(content, directory), dir, content, users: directory }
}

export async function stopRun(run: Running): Promise<void> {
  await rm(run.dir, { recursive: true, force: true })
}

export interface Answer {
  status: number
  text: string
  body: any
  headers: Headers
}

/** One request to an app, in-process; `path` is relative to the namespace. */
export async function ask(
  app: App,
  method: string,
  path: string,
  user: User | null,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const init: RequestInit = { method, headers: { ...authOf(user), ...headers } }
  if (body !== undefined) {
    init.body = JSON.stringify(body)
    ;(init.headers as Record<string, string>)['Content-Type'] = 'application/json'
  }
  const response = await app.fetch(new Request(`http://127.0.0.1:8089/wp-json/calendar/events/v1/${path}`, init))
  const text = await response.text()
  let parsed: unknown = null
  try {
    parsed = text === '' ? null : JSON.parse(text)
  } catch {
    parsed = null
  }
  return { status: response.status, text, body: parsed, headers: response.headers }
}

/** Every file under the tree with a digest of its bytes: what "the tree is unchanged" compares. */
export async function snapshot(content: string): Promise<Map<string, string>> {
  const files = new Map<string, string>()
  for (const entry of await readdir(content, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    files.set(
      relative(content, path),
      createHash('sha256')
        .update(await readFile(path))
        .digest('hex'),
    )
  }
  return files
}

/** The files that differ between two snapshots (added, removed or changed). */
export function changedFiles(before: Map<string, string>, after: Map<string, string>): string[] {
  const paths = new Set([...before.keys(), ...after.keys()])
  return [...paths].filter((path) => before.get(path) !== after.get(path)).sort()
}

/** `almanac check` on the tree: its errors (warnings do not fail a tree). */
export async function checkErrors(content: string): Promise<string[]> {
  const { problems } = await checkContent(content, false)
  return problems
    .filter((p) => (p.severity ?? 'error') === 'error')
    .map((p) => `${p.path}:${p.line ?? 1}: ${p.message}`)
}
