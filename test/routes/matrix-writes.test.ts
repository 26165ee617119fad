import { rm } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { as, call, json, writableApp, type Login } from '../helpers.ts'
import { reloadApp, snapshot } from './writes-tree.ts'

// Every write route × every role × whose record × its status, by id and by slug, against the
// rights of WordPress's roles (docs/compatibility.md §20, §22): no credentials is 401 before anything, and by-slug
// writes check the very record, as by-id ones do (docs/compatibility.md §3, §6). Every refused write leaves the tree byte-identical.

type Caller = Login | 'anonymous'
type PostKind = 'events' | 'venues' | 'organizers'
type TermKind = 'categories' | 'tags'

const CALLERS: Caller[] = ['admin', 'editor', 'author', 'contributor', 'subscriber', 'anonymous']
const IDS: Record<Login, number> = { admin: 1, editor: 2, author: 3, contributor: 4, subscriber: 5 }
const RANK: Record<Caller, number> = { admin: 4, editor: 3, author: 2, contributor: 1, subscriber: 0, anonymous: -1 }
const POST_KINDS: PostKind[] = ['events', 'venues', 'organizers']
const OPS = ['update', 'delete'] as const
const STATUSES = ['publish', 'draft'] as const

/** What the roles allow, as the status code of the answer. */
function expected(caller: Caller, allowed: boolean, success: number): number {
  if (caller === 'anonymous') return 401
  return allowed ? success : 403
}

/** `edit_post` / `delete_post`: editors any; authors their own; contributors their own unpublished. */
function mayChange(caller: Caller, own: boolean, status: string): boolean {
  if (RANK[caller] >= RANK.editor) return true
  if (!own || RANK[caller] < RANK.contributor) return false
  return RANK[caller] >= RANK.author || status !== 'publish'
}

const headers = (caller: Caller) => (caller === 'anonymous' ? {} : as(caller))

let serial = 0
/** A new record's arguments; names are unique so no write reuses another's record. */
function fields(kind: PostKind | TermKind): Record<string, unknown> {
  const name = `Matrix ${kind} ${++serial}`
  if (kind === 'events') return { title: name, start_date: '2026-12-20 18:00:00', end_date: '2026-12-20 20:00:00' }
  if (kind === 'venues') return { venue: name }
  if (kind === 'organizers') return { organizer: name }
  return { name }
}

/** A change a write may make to a record of this kind. */
const CHANGE: Record<PostKind | TermKind, Record<string, unknown>> = {
  events: { excerpt: 'changed' },
  venues: { city: 'Changed' },
  organizers: { phone: '123' },
  categories: { description: 'changed' },
  tags: { description: 'changed' },
}

type App = Awaited<ReturnType<typeof writableApp>>

/** Sends one write; when it is expected to be refused, checks the tree is byte-identical after it. */
async function expectWrite(app: App, label: string, path: string, init: RequestInit, status: number) {
  const before = status >= 400 ? await snapshot(app.content) : undefined
  const response = await call(app, path, init)
  expect(response.status, `${label}: ${response.text.slice(0, 200)}`).toBe(status)
  if (before) expect(await snapshot(app.content), `${label}: tree changed`).toEqual(before)
}

/** A record made by an administrator for the case: owned by `owner`, in `status`. */
async function seed(app: App, kind: PostKind, owner: number, status: string) {
  const response = await call(app, kind, json('POST', { ...fields(kind), author: owner, status }, as('admin')))
  expect(response.status, response.text).toBe(201)
  return { id: response.body.id as number, slug: response.body.slug as string }
}

async function postCases(app: App, caller: Caller) {
  for (const kind of POST_KINDS) {
    await expectWrite(
      app,
      `${caller} creates ${kind}`,
      kind,
      json('POST', fields(kind), headers(caller)),
      expected(caller, RANK[caller] >= RANK.contributor, 201),
    )
    for (const own of caller === 'anonymous' ? [false] : [true, false]) {
      const owner = own ? IDS[caller as Login] : caller === 'admin' ? IDS.editor : IDS.admin
      for (const status of STATUSES) {
        for (const op of OPS) {
          for (const by of ['id', 'slug'] as const) {
            const record = await seed(app, kind, owner, status)
            const path = by === 'id' ? `${kind}/${record.id}` : `${kind}/by-slug/${record.slug}`
            const init = json(
              op === 'update' ? 'PATCH' : 'DELETE',
              op === 'update' ? CHANGE[kind] : {},
              headers(caller),
            )
            const label = `${caller} ${op}s ${own ? 'own' : "another's"} ${status} ${kind} by ${by}`
            await expectWrite(app, label, path, init, expected(caller, mayChange(caller, own, status), 200))
          }
        }
      }
    }
  }
}

async function termCases(app: App, caller: Caller) {
  for (const kind of ['categories', 'tags'] as const) {
    // Categories need publish_tribe_events (authors and up), tags manage_categories (editors and up).
    const allowed = RANK[caller] >= (kind === 'categories' ? RANK.author : RANK.editor)
    await expectWrite(
      app,
      `${caller} creates ${kind}`,
      kind,
      json('POST', fields(kind), headers(caller)),
      expected(caller, allowed, 201),
    )
    for (const op of OPS) {
      const term = await call(app, kind, json('POST', fields(kind), as('admin')))
      const init = json(op === 'update' ? 'PATCH' : 'DELETE', op === 'update' ? CHANGE[kind] : {}, headers(caller))
      await expectWrite(
        app,
        `${caller} ${op}s ${kind}`,
        `${kind}/${term.body.id}`,
        init,
        expected(caller, allowed, 200),
      )
    }
  }
}

describe('the write matrix: route × role × owner × status (docs/compatibility.md §3, §6)', () => {
  it.each(CALLERS)(
    'answers %s as its role allows on every write route, and a refused write changes nothing',
    async (caller) => {
      const app = await writableApp('reference')
      try {
        await postCases(app, caller)
        await termCases(app, caller)
        expect((await reloadApp(app.content, app.dir)).problems).toEqual([])
      } finally {
        await rm(app.dir, { recursive: true, force: true })
      }
    },
  )
})
