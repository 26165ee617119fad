import { readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openUsers } from '../../src/auth/users.ts'
import { as, call, json, writableApp } from '../helpers.ts'

// A write's rights were checked once, before its body arrived (docs/compatibility.md §3), and the record the path
// names looked up again in its transaction without them: a write held open on an id or slug nobody had yet landed
// on whatever was created there meanwhile, and one sent before a user was removed or a record published went
// through after. The rights are now checked again in the transaction, as the users file and the store are then.
// test/fixtures/visibility: users admin 1, editor 2, author 3, contributor 4, subscriber 5; event 404 is the
// contributor's pending event, 406 a published event of the admin.

let app: Awaited<ReturnType<typeof writableApp>>
beforeEach(async () => {
  app = await writableApp('visibility')
})
afterEach(() => rm(app.dir, { recursive: true, force: true }))

const API = 'http://127.0.0.1/wp-json/calendar/events/v1/'

/** A write whose headers go now, so its rights are checked now, and whose JSON body goes on `release`. */
function heldWrite(path: string, method: string, headers: Record<string, string>) {
  let push!: (text: string) => void
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      push = (text) => {
        controller.enqueue(new TextEncoder().encode(text))
        controller.close()
      }
    },
  })
  const init = { method, body, duplex: 'half', headers: { 'Content-Type': 'application/json', ...headers } }
  const response = app.fetch(new Request(API + path, init as RequestInit))
  return {
    release: async (sent: unknown) => {
      push(JSON.stringify(sent))
      const answered = await response
      return { status: answered.status, body: await answered.json() }
    },
  }
}
/** Long enough for the held request to have been routed and its rights checked. */
const routed = () => new Promise((resolve) => setTimeout(resolve, 50))
const event = (title: string) => ({ title, start_date: '2026-12-21 19:00:00', end_date: '2026-12-21 22:00:00' })

describe('a write held open on a record that does not exist yet', () => {
  it("does not land on the editor's event created at that id meanwhile", async () => {
    const probe = await call(app, 'events', json('POST', event('Probe'), as('contributor')))
    const next = probe.body.id + 1
    const held = heldWrite(`events/${next}`, 'PATCH', as('contributor'))
    await routed()
    const gala = await call(app, 'events', json('POST', event('Editor Gala'), as('editor')))
    expect([gala.body.id, gala.body.status, gala.body.author]).toEqual([next, 'publish', '2'])
    const direct = await call(app, `events/${next}`, json('PATCH', { title: 'Hijacked' }, as('contributor')))
    const answer = await held.release({ title: 'Hijacked', author: 4 })
    expect([answer.status, answer.body]).toEqual([403, direct.body])
    const now = await call(app, `events/${next}`)
    expect([now.body.title, now.body.author]).toEqual(['Editor Gala', '2'])
  })

  it('nor trashes it', async () => {
    const probe = await call(app, 'events', json('POST', event('Probe'), as('contributor')))
    const held = heldWrite(`events/${probe.body.id + 1}`, 'DELETE', as('contributor'))
    await routed()
    const fair = await call(app, 'events', json('POST', event('Editor Fair'), as('editor')))
    expect((await held.release({})).status).toBe(403)
    expect((await call(app, `events/${fair.body.id}`)).status).toBe(200)
  })

  it("nor rewrites the editor's venue created at that id", async () => {
    const probe = await call(app, 'events', json('POST', event('Probe'), as('contributor')))
    const held = heldWrite(`venues/${probe.body.id + 1}`, 'PATCH', as('contributor'))
    await routed()
    const hall = await call(
      app,
      'venues',
      json('POST', { venue: 'Editor Hall', address: '1 Real Street' }, as('editor')),
    )
    expect((await held.release({ address: '666 Fake Street' })).status).toBe(403)
    expect((await call(app, `venues/${hall.body.id}`)).body.address).toBe('1 Real Street')
  })

  it('nor, by slug, the event whose title makes that slug', async () => {
    const held = heldWrite('events/by-slug/annual-gala', 'PATCH', as('contributor'))
    await routed()
    const gala = await call(app, 'events', json('POST', event('Annual Gala'), as('editor')))
    expect(gala.body.slug).toBe('annual-gala')
    expect((await held.release({ description: 'Cancelled, go home' })).status).toBe(403)
    expect((await call(app, `events/${gala.body.id}`)).body.description).not.toContain('go home')
  })

  it('still answers 404 when nothing was created there', async () => {
    const held = heldWrite('events/99999', 'PATCH', as('contributor'))
    await routed()
    const answer = await held.release({ title: 'Nobody' })
    expect([answer.status, answer.body.code]).toEqual([404, 'rest-event-not-found'])
  })
})

describe('a write held open while its rights change', () => {
  it("is refused once an editor published the contributor's event", async () => {
    const held = heldWrite('events/404', 'PATCH', as('contributor'))
    await routed()
    expect((await call(app, 'events/404', json('PATCH', { status: 'publish' }, as('editor')))).body.status).toBe(
      'publish',
    )
    expect((await held.release({ title: 'Defaced after approval' })).status).toBe(403)
    expect((await call(app, 'events/404')).body.title).toBe('Contribpending Event')
  })

  it('is refused once its user was removed, as at once as the users file says so', async () => {
    const held = heldWrite('events/406', 'PATCH', as('editor'))
    await routed()
    openUsers(join(app.dir, 'users.yaml')).remove('editor')
    const answer = await held.release({ title: 'Written by a removed user' })
    expect([answer.status, answer.body.code]).toEqual([401, 'incorrect_password'])
    expect((await call(app, 'events/406')).body.title).not.toBe('Written by a removed user')
  })

  it('is refused once its password was reset, or its login given to a new user', async () => {
    const held = heldWrite('events/406', 'PATCH', as('editor'))
    await routed()
    const users = openUsers(join(app.dir, 'users.yaml'))
    const { password } = users.resetPassword('editor')
    expect((await held.release({ title: 'Old password' })).status).toBe(401)
    const again = heldWrite('events/406', 'PATCH', as('editor', password))
    await routed()
    users.remove('editor')
    users.add('editor', 'contributor', password)
    expect((await again.release({ title: 'Demoted' })).status).toBe(401)
    expect((await call(app, 'events/406')).body.title).not.toMatch(/Old password|Demoted/)
  })

  it('goes through when nothing changed, in one language or another', async () => {
    const held = heldWrite('events/406?ml_language=ms', 'PATCH', as('editor'))
    await routed()
    const answer = await held.release({ title: 'Tajuk Baru' })
    expect(answer.status).toBe(200)
    expect((await call(app, 'events/406?ml_language=ms')).body.title).toBe('Tajuk Baru')
  })
})

describe('a post in the trash', () => {
  it('keeps the rights it had before: a contributor cannot change or restore their event trashed once published', async () => {
    expect((await call(app, 'events/404', json('PATCH', { status: 'publish' }, as('editor')))).body.status).toBe(
      'publish',
    )
    expect((await call(app, 'events/404', { method: 'DELETE', headers: as('editor') })).status).toBe(200)
    const refused = await call(app, 'events/404', json('PATCH', { title: 'Back, edited' }, as('contributor')))
    expect(refused.status).toBe(403)
    const restored = await call(app, 'events/404', json('PATCH', { title: 'Back' }, as('editor')))
    expect([restored.status, restored.body.status]).toEqual([200, 'publish'])
  })

  it("is the contributor's again when it was trashed unpublished, and the file says what it was only while trashed", async () => {
    const source = (await readdir(join(app.content, 'events'))).find((name) => name.startsWith('contrib-pending'))!
    expect((await call(app, 'events/404', { method: 'DELETE', headers: as('contributor') })).status).toBe(200)
    expect(await readFile(join(app.content, 'events', source), 'utf8')).toMatch(
      /\nstatus: trash\ntrashed_from: pending\n/,
    )
    const restored = await call(app, 'events/404', json('PATCH', { title: 'Back' }, as('contributor')))
    expect([restored.status, restored.body.status]).toEqual([200, 'draft'])
    expect(await readFile(join(app.content, 'events', source), 'utf8')).not.toContain('trashed_from')
  })
})

describe('an event removed by the write ahead of this one', () => {
  it('answers the second of two DELETEs by slug as for a slug that names nothing', async () => {
    const del = () => call(app, 'events/by-slug/open-plain?force=true', json('DELETE', {}, as('editor')))
    const [first, second] = await Promise.all([del(), del()])
    expect(first.status).toBe(200)
    expect([second.status, second.body]).toEqual([400, (await del()).body])
  })
})

describe('a term removed by the write ahead of this one', () => {
  it('answers the second of two DELETEs, and a PATCH behind a DELETE, as for a term that is not there', async () => {
    const [first, second] = await Promise.all([
      call(app, 'tags/311', { method: 'DELETE', headers: as('editor') }),
      call(app, 'tags/311', { method: 'DELETE', headers: as('editor') }),
    ])
    expect([first.status, second.status]).toEqual([200, 400])
    expect(second.body.code).toBe('rest_invalid_param')
    const [removed, renamed] = await Promise.all([
      call(app, 'categories/301', { method: 'DELETE', headers: as('editor') }),
      call(app, 'categories/301', json('PATCH', { name: 'Renamed' }, as('editor'))),
    ])
    expect([removed.status, renamed.status]).toEqual([200, 400])
    const parent = await call(app, 'categories', json('POST', { name: 'Parent' }, as('editor')))
    const other = await call(app, 'categories', json('POST', { name: 'Other' }, as('editor')))
    const [gone, child, moved] = await Promise.all([
      call(app, `categories/${parent.body.id}`, { method: 'DELETE', headers: as('editor') }),
      call(app, 'categories', json('POST', { name: 'Child', parent: parent.body.id }, as('editor'))),
      call(app, `categories/${other.body.id}`, json('PATCH', { parent: parent.body.id }, as('editor'))),
    ])
    expect([gone.status, child.status, moved.status]).toEqual([200, 400, 400])
    expect([child.body.data.params, moved.body.data.params].map(Object.keys)).toEqual([['parent'], ['parent']])
    expect((await call(app, 'categories/301', json('PATCH', { name: 'Again' }, as('editor')))).body).toEqual(
      renamed.body,
    )
  })
})

describe('the second look at the users file', () => {
  it('answers 403 to a write whose user was given another role meanwhile, and the write sent again runs', async () => {
    const held = heldWrite('events/404', 'PATCH', as('contributor'))
    await routed()
    const file = join(app.dir, 'users.yaml')
    const text = await readFile(file, 'utf8')
    await writeFile(file, text.replace(/(login: contributor\n\s*role: )contributor/, '$1editor'))
    expect((await held.release({ title: 'Still mine' })).status).toBe(403)
    const again = await call(app, 'events/404', json('PATCH', { title: 'Still mine' }, as('contributor')))
    expect([again.status, again.body.title]).toEqual([200, 'Still mine'])
  })

  it('counts against no sign-in limit: writes refused after a password reset do not lock the new password out', async () => {
    const users = openUsers(join(app.dir, 'users.yaml'))
    // One at a time: the first signs in, the others find its check remembered.
    const held: ReturnType<typeof heldWrite>[] = []
    for (let i = 0; i < 12; i++) {
      held.push(heldWrite('events/406', 'PATCH', as('editor')))
      await routed()
    }
    const { password } = users.resetPassword('editor')
    for (const write of held) expect((await write.release({ title: 'Old password' })).status).toBe(401)
    const fresh = heldWrite('events/406', 'PATCH', as('editor', password))
    await routed()
    users.add('someone', 'subscriber', 'a-long-password-0000')
    const answer = await fresh.release({ title: 'New password' })
    expect([answer.status, answer.body.title]).toEqual([200, 'New password'])
  }, 60_000)
})
