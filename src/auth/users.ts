import { lstatSync, readFileSync, readlinkSync, realpathSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { writeFileAtomicSync } from '../disk/atomic.ts'
import { createLoginChecker, DEFAULT_LIMITS, type LoginLimits } from './login.ts'
import { generatePassword, hashPassword, normalizePassword } from './passwords.ts'
import { isRole, type Caller, type Role } from './roles.ts'
import { formatUsers, parseUsers, type StoredUser, type UsersData, userByLogin, UsersError } from './users-file.ts'

/** The users file: who may write, with what role, and how they prove it. */
export interface UserDirectory {
  /**
   * The caller named by an `Authorization: Basic` header; null without one; 401 when it does not
   * check out; 429 after too many failures for the login or the client `address`.
   */
  authenticate(header: string | null, address?: string): Promise<Caller | null>
  /**
   * Who `header`, which checked out for this request, names in the users file as it is now (looked at again, not
   * up to a second old), or null: a write asks in its transaction, since a user may be removed, given another role
   * or a new password while the request's body arrives or it waits its turn. Counts against no sign-in limit.
   */
  callerNow(header: string | null): Promise<Caller | null>
  list(): StoredUser[]
  /** Adds a user; returns the application password (generated unless given), shown once. */
  add(login: string, role: Role, password?: string): { user: StoredUser; password: string }
  /** Removes a user; returns it as stored (its login as written in the file, which a caller may type otherwise). */
  remove(login: string): StoredUser
  /** Replaces a user's application passwords with one new one, returned once, with the user as stored. */
  resetPassword(login: string, password?: string): { user: StoredUser; password: string }
}

export interface UsersOptions {
  /** Where problems found while serving are told (once each); they never fail a request. */
  log?: (message: string) => void
  limits?: LoginLimits
  now?: () => number
}

const LOGIN = /^[A-Za-z0-9._@-]{1,60}$/
const RECHECK_MS = 1000

/**
 * Opens the users file (it may not exist yet); throws UsersError when it cannot be read. The server
 * notices edits made by `almanac user`; a file broken while serving leaves the last good users in place.
 */
export function openUsers(file: string, options: UsersOptions = {}): UserDirectory {
  const log = options.log ?? ((message: string) => console.error(`almanac: ${message}`))
  const now = options.now ?? Date.now
  const checker = createLoginChecker(options.limits ?? DEFAULT_LIMITS, now)
  let data: UsersData = read(file, log)
  let loadedStamp = stampOf(file)
  let checkedAt = now()

  const fresh = (force = false) => {
    if (!force && now() - checkedAt < RECHECK_MS) return data.users
    checkedAt = now()
    const stamp = stampOf(file)
    if (stamp === loadedStamp) return data.users
    loadedStamp = stamp
    try {
      const before = data.users.length
      data = read(file, log)
      checker.forget(data.users)
      // Deleting the file removes every user: said once, as no request will say why it is refused.
      if (stamp === '' && before > 0) log(`${file} is gone: no one can sign in until it is back`)
    } catch (error) {
      log(`${(error as Error).message}; keeping the users read before`)
    }
    return data.users
  }
  // Changes start from the file as it is now, and refuse to write over one that cannot be read.
  const change = (next: (current: UsersData) => UsersData) => {
    const updated = next(read(file, () => {}))
    save(file, updated)
    data = updated
    loadedStamp = stampOf(file)
    checker.forget(data.users)
  }
  const find = (current: UsersData, login: string) => {
    const user = userByLogin(current.users, login)
    if (!user) throw new UsersError(`no user "${login}"`)
    return user
  }

  return {
    authenticate: async (header, address) => (header === null ? null : checker.check(header, address, fresh())),
    callerNow: async (header) => (header === null ? null : checker.again(header, fresh(true))),
    list: () => fresh().map((user) => ({ ...user })),
    add(login, role, password) {
      if (!LOGIN.test(login)) throw new UsersError(`login "${login}" must be 1–60 letters, digits, . _ @ or -`)
      if (!isRole(role)) throw new UsersError(`unknown role "${role}"`)
      let made: { user: StoredUser; password: string } | undefined
      change((current) => {
        const twin = userByLogin(current.users, login)
        if (twin) throw new UsersError(`user "${twin.login}" exists already (logins are compared without case)`)
        const entry = newPassword(password)
        // Ids are never reused: a new user must not inherit the records of a removed one.
        const user: StoredUser = { id: current.highestId + 1, login, role, passwords: [entry.entry] }
        made = { user, password: entry.password }
        return { users: [...current.users, user], highestId: user.id }
      })
      return made!
    },
    remove(login) {
      let removed: StoredUser | undefined
      change((current) => {
        const user = find(current, login)
        removed = user
        return { ...current, users: current.users.filter((u) => u !== user) }
      })
      return removed!
    },
    resetPassword(login, password) {
      let made: { user: StoredUser; password: string } | undefined
      change((current) => {
        const user = find(current, login)
        const entry = newPassword(password)
        made = { user: { ...user, passwords: [entry.entry] }, password: entry.password }
        return { ...current, users: current.users.map((u) => (u === user ? made!.user : u)) }
      })
      return made!
    },
  }
}

function newPassword(given?: string) {
  const password = given ?? generatePassword()
  if (normalizePassword(password).length < 12)
    throw new UsersError('an application password needs at least 12 characters')
  return { password, entry: { name: 'almanac', hash: hashPassword(password), created: new Date().toISOString() } }
}

/** What tells one version of the users file from another: a replace (a new inode) in the same millisecond too. */
function stampOf(file: string): string {
  try {
    const stats = statSync(file)
    return `${stats.mtimeMs}:${stats.ino}:${stats.size}`
  } catch {
    return ''
  }
}

/**
 * The most a users file may hold. It is read again on the event loop, in the first request after it changed, at
 * ~0.07 ms a user (in-process, on the shared 2-core machine; 10,000 users held every request 1.1 s): about 1,100
 * users of the usual size fit, read in under ~100 ms. A larger file is refused, as a broken one is.
 */
export const USERS_FILE_LIMIT = 256 * 1024

/** The users file's content; no file is no users. */
function read(file: string, warn: (message: string) => void): UsersData {
  let text: string
  try {
    if (statSync(file).size > USERS_FILE_LIMIT)
      throw new UsersError(
        `${file}: larger than ${USERS_FILE_LIMIT / 1024} KiB (about 1,100 users), the most it may be`,
      )
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if (error instanceof UsersError) throw error
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { users: [], highestId: 0 }
    throw new UsersError(
      `${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    )
  }
  return parseUsers(file, text, (message) => warn(`${file}: ${message}`))
}

function save(file: string, data: UsersData): void {
  // Only its owner may read the users file: it holds password hashes. A users file that is a link (into a secrets
  // folder, say) is written where it points: replacing the link with a file left the target with the old users.
  writeFileAtomicSync(linkedTo(file), formatUsers(data), { mode: 0o600, makeFolder: true })
}

/**
 * Where a file is, through any link on the way, also one whose target is not there yet (a secrets folder's file made
 * by the first `user add`, or deleted since): the file is made where the link points, never over the link.
 */
function linkedTo(file: string): string {
  let at = file
  for (let hops = 0; hops < 40; hops++) {
    try {
      return realpathSync(at)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new UsersError(`${file}: its links loop`)
      const link = lstatSync(at, { throwIfNoEntry: false })
      if (!link?.isSymbolicLink()) return at
      at = resolve(dirname(at), readlinkSync(at))
    }
  }
  throw new UsersError(`${file}: its links loop`)
}
