import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createFailureLimiter, createGate } from '../../src/auth/limiter.ts'
import { clientKey } from '../../src/auth/login.ts'
import { openUsers } from '../../src/auth/users.ts'
import { UsersError } from '../../src/auth/users-file.ts'

let dir: string
let file: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'almanac-users-'))
  file = join(dir, 'users.yaml')
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`
const status = (promise: Promise<unknown>) =>
  promise.then(
    () => 200,
    (error: { status?: number }) => error.status ?? 500,
  )

describe('the users file on disk', () => {
  it('is readable by its owner only, in a folder made for it, with no temporary file left beside it', async () => {
    const nested = join(dir, 'config', 'users.yaml')
    const users = openUsers(nested)
    users.add('ada', 'administrator', 'ada-password-0001')
    users.add('bob', 'author', 'bob-password-0002')
    expect((await stat(nested)).mode & 0o777).toBe(0o600)
    expect(await readdir(join(dir, 'config'))).toEqual(['users.yaml'])
  })
})

describe('a users file that is a link', () => {
  it('is written where it points, the link kept', async () => {
    const { lstat, mkdir, symlink } = await import('node:fs/promises')
    await mkdir(join(dir, 'secrets'))
    const target = join(dir, 'secrets', 'users.yaml')
    await writeFile(target, 'users:\n  - { id: 1, login: old, role: editor, passwords: [] }\n')
    await symlink(target, file)
    openUsers(file).add('ada', 'administrator', 'ada-password-0001')
    expect((await lstat(file)).isSymbolicLink()).toBe(true)
    expect(await readFile(target, 'utf8')).toMatch(/login: ada/)
    expect(
      openUsers(file)
        .list()
        .map((user) => user.login),
    ).toEqual(['old', 'ada'])
    expect(await readdir(join(dir, 'secrets'))).toEqual(['users.yaml'])
  })
})

describe('a users file that is a link to a file not there yet', () => {
  it('is made where the link points, the link kept', async () => {
    const { lstat, mkdir, symlink } = await import('node:fs/promises')
    await mkdir(join(dir, 'secrets'))
    await symlink(join('secrets', 'users.yaml'), file) // relative, as `ln -s` is usually given
    openUsers(file).add('ada', 'administrator', 'ada-password-0001')
    expect((await lstat(file)).isSymbolicLink()).toBe(true)
    expect(await readFile(join(dir, 'secrets', 'users.yaml'), 'utf8')).toMatch(/login: ada/)
    expect((await stat(join(dir, 'secrets', 'users.yaml'))).mode & 0o777).toBe(0o600)
  })

  it('is refused when its links loop, and nothing is written', async () => {
    const { symlink } = await import('node:fs/promises')
    await symlink(file, join(dir, 'other.yaml'))
    await symlink(join(dir, 'other.yaml'), file)
    expect(() => openUsers(file).add('ada', 'administrator', 'ada-password-0001')).toThrow(UsersError)
    expect((await readdir(dir)).sort()).toEqual(['other.yaml', 'users.yaml'])
  })
})

describe('a users file deleted while serving', () => {
  it('leaves no one signed in, and says so once', async () => {
    let clock = 0
    const logged: string[] = []
    const users = openUsers(file, { now: () => clock, log: (message) => logged.push(message) })
    users.add('ada', 'administrator', 'ada-password-0001')
    await rm(file)
    for (let i = 0; i < 3; i++) {
      clock += 5_000
      expect(await status(users.authenticate(basic('ada', 'ada-password-0001')))).toBe(401)
    }
    expect(logged).toEqual([expect.stringMatching(/users\.yaml is gone: no one can sign in until it is back$/)])
  })
})

describe('user ids', () => {
  it('never hands out the id of a removed user again', () => {
    const users = openUsers(file)
    users.add('ada', 'administrator', 'ada-password-0001')
    const bob = users.add('bob', 'author', 'bob-password-0002').user
    users.remove('bob')
    const carol = openUsers(file).add('carol', 'author', 'carol-password-03').user
    expect(carol.id).toBeGreaterThan(bob.id)
  })

  it('continues after the highest id of a users file that does not say which ids it used', async () => {
    await writeFile(file, 'users:\n  - { id: 7, login: old, role: editor, passwords: [] }\n')
    expect(openUsers(file).add('new', 'author', 'new-password-0001').user.id).toBe(8)
    expect(await readFile(file, 'utf8')).toMatch(/^highest_id: 8$/m)
  })
})

describe('a users file that cannot be used', () => {
  it.each([
    [
      'not YAML',
      'users: [\n  - id: 1\n',
      /users\.yaml:2: not valid YAML: Block collections are not allowed within flow collections$/,
    ],
    ['a list', '- id: 1\n', /users\.yaml:1: expected a mapping/],
    ['users that is no list', 'users: 5\n', /users\.yaml:1: `users` must be a list/],
    [
      'a user without a role',
      'users:\n  - { id: 1, login: ada, passwords: [] }\n',
      /users\.yaml:2: user 1 \(ada\) has an unknown role/,
    ],
    [
      'one id twice',
      'users:\n  - { id: 1, login: a, role: editor }\n  - { id: 1, login: b, role: editor }\n',
      /users\.yaml:3: id 1 is used by two users/,
    ],
    [
      'passwords that are text',
      'users:\n  - { id: 1, login: a, role: editor, passwords: [x] }\n',
      /users\.yaml:2: user 1 \(a\): passwords must be a list of mappings/,
    ],
  ])('is refused at opening when it is %s, in one line naming the file and the line', async (_, text, message) => {
    await writeFile(file, text)
    expect(() => openUsers(file, { log: () => {} })).toThrow(UsersError)
    expect(() => openUsers(file, { log: () => {} })).toThrow(message)
  })

  it('answers 401 for a user whose password has no hash, and says so once at opening', async () => {
    await writeFile(
      file,
      'users:\n  - { id: 1, login: ada, role: editor, passwords: [{ name: x }] }\n  - { id: 2, login: bob, role: editor, passwords: [{ name: x, hash: 12 }] }\n',
    )
    const logged: string[] = []
    const users = openUsers(file, { log: (message) => logged.push(message) })
    expect(await status(users.authenticate(basic('ada', 'whatever-password')))).toBe(401)
    expect(await status(users.authenticate(basic('bob', 'whatever-password')))).toBe(401)
    expect(logged).toEqual([
      expect.stringMatching(/user 1 \(ada\) has a password without a hash/),
      expect.stringMatching(/user 2 \(bob\)/),
    ])
  })

  it('answers 401, never 500, for hashes that are malformed or would cost too much to check', async () => {
    const hashes = [
      'plain-text',
      'scrypt$16384$8$1$c2FsdA',
      `scrypt$131072$32$4$c2FsdHNhbHQ$${'A'.repeat(43)}`,
      `scrypt$1073741824$8$1$c2FsdA$${'A'.repeat(43)}`,
      'bcrypt$2b$10$x',
    ]
    const lines = hashes.map(
      (hash, i) => `  - { id: ${i + 1}, login: u${i}, role: editor, passwords: [{ name: x, hash: '${hash}' }] }`,
    )
    await writeFile(file, `users:\n${lines.join('\n')}\n`)
    const users = openUsers(file)
    for (let i = 0; i < hashes.length; i++)
      expect(await status(users.authenticate(basic(`u${i}`, 'whatever-password')))).toBe(401)
  })

  it('keeps the users it had when the file breaks while serving, and says so once', async () => {
    let clock = 0
    const logged: string[] = []
    const users = openUsers(file, { now: () => clock, log: (message) => logged.push(message) })
    users.add('ada', 'administrator', 'ada-password-0001')
    await writeFile(file, 'users: [oops\n')
    for (let i = 0; i < 3; i++) {
      clock += 5_000
      expect(await users.authenticate(basic('ada', 'ada-password-0001'))).toMatchObject({
        login: 'ada',
        role: 'administrator',
      })
    }
    expect(logged).toEqual([
      expect.stringMatching(/users\.yaml:\d+: not valid YAML: .*; keeping the users read before$/),
    ])
    expect(() => users.add('bob', 'author', 'bob-password-0002')).toThrow(/not valid YAML/)
    expect(await readFile(file, 'utf8')).toBe('users: [oops\n')
  })
})

describe('a users file past its bound', () => {
  it('is refused at opening, and keeps the users read before when it grows past it while serving', async () => {
    const entry = (i: number) =>
      `  - { id: ${i}, login: u${i}, role: author, passwords: [{ name: almanac, hash: "scrypt$16384$8$1$${'A'.repeat(22)}$${'B'.repeat(43)}" }] }\n`
    const big = `highest_id: 3000\nusers:\n${Array.from({ length: 3000 }, (_, i) => entry(i + 1)).join('')}`
    await writeFile(file, big)
    expect(() => openUsers(file)).toThrow(/users\.yaml: larger than 256 KiB \(about 1,100 users\), the most it may be$/)
    await rm(file)
    let clock = 0
    const logged: string[] = []
    const users = openUsers(file, { now: () => clock, log: (message) => logged.push(message) })
    users.add('ada', 'administrator', 'ada-password-0001')
    await writeFile(file, big)
    clock += 5_000
    expect(await users.authenticate(basic('ada', 'ada-password-0001'))).toMatchObject({ login: 'ada' })
    expect(logged).toEqual([expect.stringMatching(/larger than 256 KiB .*; keeping the users read before$/)])
  })
})

describe('repeated failures from one address', () => {
  it('answer 429 for every login once the address has failed too often', async () => {
    const users = openUsers(file, { limits: { perLogin: 100, perAddress: 3, windowMs: 60_000, maxKeys: 100 } })
    users.add('ada', 'administrator', 'ada-password-0001')
    for (const login of ['x', 'y', 'z'])
      expect(await status(users.authenticate(basic(login, 'wrong-password-1'), '192.0.2.1'))).toBe(401)
    expect(await status(users.authenticate(basic('ada', 'ada-password-0001'), '192.0.2.1'))).toBe(429)
    expect(await status(users.authenticate(basic('ada', 'ada-password-0001'), '192.0.2.2'))).toBe(200)
  })

  it("lock a login out from the failing address only, never its owner's elsewhere", async () => {
    const users = openUsers(file, { limits: { perLogin: 3, perAddress: 100, windowMs: 60_000, maxKeys: 100 } })
    users.add('ada', 'administrator', 'ada-password-0001')
    for (let i = 0; i < 3; i++)
      expect(await status(users.authenticate(basic('ada', `wrong-password-${i}`), '198.51.100.7'))).toBe(401)
    expect(await status(users.authenticate(basic('ada', 'ada-password-0001'), '198.51.100.7'))).toBe(429)
    expect(await status(users.authenticate(basic('ada', 'ada-password-0001'), '192.0.2.1'))).toBe(200)
  })

  it('leave credentials that signed in working after the users file changes, while their passwords stay', async () => {
    let clock = 0
    const limits = { perLogin: 2, perAddress: 100, windowMs: 600_000, maxKeys: 100 }
    const users = openUsers(file, { now: () => clock, limits })
    users.add('ada', 'administrator', 'ada-password-0001')
    const address = '198.51.100.7'
    expect(await status(users.authenticate(basic('ada', 'ada-password-0001'), address))).toBe(200)
    for (let i = 0; i < 3; i++) await status(users.authenticate(basic('ada', `wrong-password-${i}`), address))
    // Another user added, and the file written again by hand (a new stamp): ada's credentials still hold.
    users.add('bob', 'author', 'bob-password-0002')
    await writeFile(file, `${await readFile(file, 'utf8')}# touched\n`)
    clock += 5_000
    expect(await status(users.authenticate(basic('ada', 'ada-password-0001'), address))).toBe(200)
    // A password reset ends them: from the locked address, the new one waits for the window.
    const reset = users.resetPassword('ada', 'ada-password-0009').password
    expect(await status(users.authenticate(basic('ada', 'ada-password-0001'), address))).toBe(429)
    expect(await status(users.authenticate(basic('ada', reset), '192.0.2.1'))).toBe(200)
  })

  it('are let through again when the window has passed', async () => {
    let clock = 0
    const users = openUsers(file, {
      now: () => clock,
      limits: { perLogin: 2, perAddress: 100, windowMs: 60_000, maxKeys: 100 },
    })
    users.add('ada', 'administrator', 'ada-password-0001')
    for (let i = 0; i < 2; i++) await status(users.authenticate(basic('ada', 'wrong-password-1')))
    expect(await status(users.authenticate(basic('ada', 'ada-password-0001')))).toBe(429)
    clock += 60_000
    expect(await status(users.authenticate(basic('ada', 'ada-password-0001')))).toBe(200)
  })

  it('are remembered for a bounded number of keys, however many an attacker cycles through', () => {
    const limiter = createFailureLimiter({ limit: 3, windowMs: 60_000, maxKeys: 1000, now: () => 0 })
    for (let i = 0; i < 50_000; i++) limiter.count(`login-${i}`)
    expect(limiter.size()).toBe(1000)
  })
})

describe('password checks at once', () => {
  it('run two at a time, every one of them in turn', async () => {
    const gate = createGate(2)
    let running = 0
    let most = 0
    const task = async (i: number) => {
      running++
      most = Math.max(most, running)
      await new Promise((done) => setTimeout(done, 1 + (i % 3)))
      running--
      return i
    }
    expect(await Promise.all(Array.from({ length: 20 }, (_, i) => gate(() => task(i))))).toEqual(
      Array.from({ length: 20 }, (_, i) => i),
    )
    expect(most).toBe(2)
  })

  // A storm of wrong passwords from many addresses, each under its own limit, queued every check: a sign-in after it
  // waited minutes. Past the checks that may wait, a sign-in is answered 429 at once and counted against no one.
  it('wait at most so many deep; past them a sign-in is told to come back, and nothing is counted', async () => {
    const limits = { perLogin: 100, perAddress: 1, windowMs: 60_000, maxKeys: 1_000, waitingChecks: 3 }
    const users = openUsers(file, { limits })
    users.add('ada', 'administrator', 'ada-password-0001')
    const signedIn = basic('ada', 'ada-password-0001')
    expect(await status(users.authenticate(signedIn, '192.0.2.200'))).toBe(200)
    const address = (i: number) => `198.51.100.${i + 1}`
    const storm = Array.from({ length: 12 }, (_, i) =>
      users.authenticate(basic('ada', `wrong-password-${i}`), address(i)).then(
        () => ({ status: 200, retry: null as string | null }),
        (error: { status: number; envelope?: { headers?: Record<string, string> } }) => ({
          status: error.status,
          retry: error.envelope?.headers?.['Retry-After'] ?? null,
        }),
      ),
    )
    // credentials that signed in pay no check, and are not turned away meanwhile
    expect(await status(users.authenticate(signedIn, '192.0.2.200'))).toBe(200)
    const answers = await Promise.all(storm)
    // one or two checks run (one a core, leaving one to the event loop), three wait; the rest are turned away
    const checked = answers.filter((answer) => answer.status === 401).length
    expect(checked).toBeGreaterThanOrEqual(4)
    expect(checked).toBeLessThanOrEqual(5)
    expect(answers.filter((answer) => answer.status === 429 && answer.retry === '5').length).toBe(12 - checked)
    // an address checked has its one try counted (429 now); one turned away had none (checked now: 401)
    for (const [i, answer] of answers.entries())
      expect(await status(users.authenticate(basic('ada', 'wrong-password-x'), address(i)))).toBe(
        answer.status === 401 ? 429 : 401,
      )
  })
})

describe('client addresses', () => {
  it.each([
    ['192.0.2.7', '192.0.2.7'],
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002::1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
  ])('count %s as %s', (address, key) => expect(clientKey(address)).toBe(key))

  it('share one allowance across an IPv6 /64', async () => {
    const users = openUsers(file, { limits: { perLogin: 100, perAddress: 2, windowMs: 60_000, maxKeys: 100 } })
    users.add('ada', 'administrator', 'ada-password-0001')
    for (const host of ['1', '2'])
      await status(users.authenticate(basic('x', 'wrong-password-1'), `2001:db8:1:2::${host}`))
    expect(await status(users.authenticate(basic('ada', 'ada-password-0001'), '2001:db8:1:2::3'))).toBe(429)
  })
})

// WordPress finds a user by login without case (`Admin` signs in as `admin`); Almanac compared logins exactly, so
// `Admin` and `admin` could be two accounts, and a login's failures could be spread across its case variants.
describe('logins', () => {
  it('are found without case: to sign in, to reset and to remove', async () => {
    const users = openUsers(file)
    users.add('Ada', 'administrator', 'ada-password-0001')
    const caller = await users.authenticate(basic('ADA', 'ada-password-0001'), '192.0.2.1')
    expect(caller).toMatchObject({ login: 'Ada', role: 'administrator' })
    expect(await users.callerNow(basic('ada', 'ada-password-0001'))).toMatchObject({ login: 'Ada' })
    // Each names the user as stored, so a command can say whom it changed.
    expect(users.resetPassword('aDa', 'ada-password-0002').user.login).toBe('Ada')
    expect(await status(users.authenticate(basic('ada', 'ada-password-0002'), '192.0.2.1'))).toBe(200)
    expect(users.remove('ADA').login).toBe('Ada')
    expect(users.list()).toEqual([])
  })

  it('that differ only by case are one: a second is refused, in a command and in the file', async () => {
    const users = openUsers(file)
    users.add('admin', 'administrator', 'admin-password-01')
    expect(() => users.add('Admin', 'subscriber', 'admin-password-02')).toThrow(/"admin" exists already/)
    await writeFile(
      file,
      'users:\n  - { id: 1, login: admin, role: editor, passwords: [] }\n  - { id: 2, login: ADMIN, role: editor, passwords: [] }\n',
    )
    expect(() => openUsers(file)).toThrow(/users\.yaml:3: login "ADMIN" is used by two users/)
  })

  it('share one allowance of failures across their case variants', async () => {
    const users = openUsers(file, { limits: { perLogin: 3, perAddress: 100, windowMs: 60_000, maxKeys: 100 } })
    users.add('ada', 'administrator', 'ada-password-0001')
    for (const login of ['ada', 'ADA', 'Ada'])
      expect(await status(users.authenticate(basic(login, 'wrong-password-1'), '198.51.100.7'))).toBe(401)
    expect(await status(users.authenticate(basic('aDA', 'ada-password-0001'), '198.51.100.7'))).toBe(429)
  })
})
