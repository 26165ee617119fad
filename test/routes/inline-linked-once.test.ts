import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../src/app.ts'
import { openUsers, type UserDirectory } from '../../src/auth/users.ts'
import { as, call, json, SAMPLE_NOW, testSite, writableApp } from '../helpers.ts'

// An inline venue or organizer is checked against its create table once per request. The count goes
// through a real seam: the users file, which the table's `author` check (isUserId) asks through
// `ctx.userExists`; the directory is the real one, wrapped only to count `list()`.

const EVENT = { title: 'Counted', start_date: '2026-12-20 18:00:00', end_date: '2026-12-20 23:00:00' }

let base: Awaited<ReturnType<typeof writableApp>>
let app: ReturnType<typeof createApp>
let lookups = 0
beforeAll(async () => {
  base = await writableApp('reference')
  const users = openUsers(join(base.dir, 'users.yaml'))
  const counted: UserDirectory = {
    ...users,
    authenticate: (header, address) => users.authenticate(header, address),
    list: () => {
      lookups++
      return users.list()
    },
  }
  const options = { store: base.store, site: testSite(), perPage: 9, maxPerPage: 50, fallback: true }
  app = createApp({ ...options, users: counted, now: () => SAMPLE_NOW, log: () => {} })
})
afterAll(async () => {
  await rm(base.dir, { recursive: true, force: true })
})

/** How many times a write looked a user up. */
async function lookupsOf(body: Record<string, unknown>, status: number): Promise<number> {
  lookups = 0
  const response = await call(app, 'events', json('POST', { ...EVENT, ...body }, as('admin')))
  expect(response.status, response.text).toBe(status)
  return lookups
}

describe('an inline venue or organizer is checked once', () => {
  it('looks up the author of an inline venue once, whether the write goes through or not', async () => {
    expect(await lookupsOf({ venue: { venue: 'Counted Hall' } }, 201)).toBe(0)
    expect(await lookupsOf({ venue: { venue: 'Counted Hall Two', author: 1 } }, 201)).toBe(1)
    expect(await lookupsOf({ venue: { venue: 'Counted Hall Three', author: 1, website: 'bad' } }, 400)).toBe(1)
  })

  it('looks up the author of each inline organizer once', async () => {
    const organizer = [{ organizer: 'Counted Org', author: 1 }, 5, { organizer: 'Counted Org Two', author: 2 }]
    expect(await lookupsOf({ organizer }, 201)).toBe(2)
  })
})
