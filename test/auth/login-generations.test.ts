import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { verifyPassword } from '../../src/auth/passwords.ts'
import { openUsers } from '../../src/auth/users.ts'

// Every hash checked, counted: the real scrypt, through a spy.
vi.mock('../../src/auth/passwords.ts', async (original) => {
  const real = await original<typeof import('../../src/auth/passwords.ts')>()
  return { ...real, verifyPassword: vi.fn(real.verifyPassword) }
})
const hashes = vi.mocked(verifyPassword)

// A password reset (or any change of the users file) while a check of the old password was under way: the check
// answered for the users as they were, and its answer was remembered for the users as they are, so the revoked
// password kept working until the next change; a check begun after the reset could join it too.

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'almanac-login-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))
const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`

describe('a password checked while the users file changes', () => {
  it('is not remembered as good when the users changed while it was checked', async () => {
    const users = openUsers(join(dir, 'users.yaml'), { log: () => {} })
    users.add('eve', 'editor', 'old-password-0001')
    const first = users.authenticate(basic('eve', 'old-password-0001'), '10.0.0.1')
    users.resetPassword('eve', 'new-password-0002') // revokes the old one
    expect((await first)?.login).toBe('eve') // fine: it was valid when asked
    // Any later request with the revoked password must now fail.
    await expect(users.authenticate(basic('eve', 'old-password-0001'), '10.0.0.1')).rejects.toThrow()
    expect(await users.callerNow(basic('eve', 'old-password-0001'))).toBeNull()
  })

  it('is not answered by a check begun against the users as they were', async () => {
    const users = openUsers(join(dir, 'users.yaml'), { log: () => {} })
    users.add('eve', 'editor', 'old-password-0001')
    const first = users.authenticate(basic('eve', 'old-password-0001'), '10.0.0.1')
    users.resetPassword('eve', 'new-password-0002')
    const after = users.authenticate(basic('eve', 'old-password-0001'), '10.0.0.2')
    await first
    await expect(after).rejects.toThrow()
  })

  it("is not remembered by a write's second look either", async () => {
    const users = openUsers(join(dir, 'users.yaml'), { log: () => {} })
    users.add('eve', 'editor', 'old-password-0001')
    users.add('bob', 'author', 'bob-password-0001') // a change: forgets remembered checks
    const now = users.callerNow(basic('eve', 'old-password-0001'))
    users.resetPassword('eve', 'new-password-0002')
    await now
    expect(await users.callerNow(basic('eve', 'old-password-0001'))).toBeNull()
  })
})

describe("a write's second look with a password reset meanwhile", () => {
  it('pays one hash, however many writes held open with it look again', async () => {
    const users = openUsers(join(dir, 'users.yaml'), { log: () => {} })
    users.add('eve', 'editor', 'old-password-0001')
    expect((await users.authenticate(basic('eve', 'old-password-0001'), '10.0.0.1'))?.login).toBe('eve')
    users.resetPassword('eve', 'new-password-0002')
    const before = hashes.mock.calls.length
    for (let i = 0; i < 10; i++) expect(await users.callerNow(basic('eve', 'old-password-0001'))).toBeNull()
    expect(hashes.mock.calls.length - before).toBe(1)
    expect((await users.callerNow(basic('eve', 'new-password-0002')))?.login).toBe('eve')
  })
})
