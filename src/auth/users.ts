import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { timingSafeEqual } from 'node:crypto'
import YAML from 'yaml'
import { apiError } from '../errors.ts'
import { credentialDigest, generatePassword, hashPassword, normalizePassword, verifyPassword } from './passwords.ts'
import { isRole, type Caller, type Role } from './roles.ts'

/** A user as the users file keeps it: application passwords only as hashes. */
export interface StoredUser {
  id: number
  login: string
  role: Role
  passwords: { name: string; hash: string; created: string }[]
}

/** The users file: who may write, with what role, and how they prove it. */
export interface UserDirectory {
  /** The caller named by an `Authorization: Basic` header; null without one; 401 when it does not check out. */
  authenticate(header: string | null): Caller | null
  list(): StoredUser[]
  /** Adds a user; returns the application password (generated unless given), shown once. */
  add(login: string, role: Role, password?: string): { user: StoredUser; password: string }
  remove(login: string): void
  /** Replaces a user's application passwords with one new one, returned once. */
  resetPassword(login: string, password?: string): string
}

/** Thrown for a users-file operation that cannot be done (unknown login, taken login, bad role). */
export class UsersError extends Error {}

const LOGIN = /^[A-Za-z0-9._@-]{1,60}$/
const RECHECK_MS = 1000

/** Opens the users file (it may not exist yet); the server notices edits made by `almanac user`. */
export function openUsers(file: string): UserDirectory {
  let users: StoredUser[] = []
  let loadedMtime = -1
  let checkedAt = 0
  // Successful checks, remembered as credential digests so a request does not pay scrypt each time.
  let verified = new Map<string, Buffer>()

  const load = () => {
    let mtime: number
    try {
      mtime = statSync(file).mtimeMs
    } catch {
      mtime = 0
    }
    if (mtime === loadedMtime) return
    users = mtime === 0 ? [] : parseUsers(file, readFileSync(file, 'utf8'))
    loadedMtime = mtime
    verified = new Map()
  }
  const fresh = () => {
    const now = Date.now()
    if (now - checkedAt >= RECHECK_MS) {
      checkedAt = now
      load()
    }
    return users
  }
  const save = (next: StoredUser[]) => {
    mkdirSync(dirname(file), { recursive: true })
    const text = `# Almanac users (almanac user add|list|remove|reset-password). Keep this file out of git.\n${YAML.stringify({ users: next })}`
    const temporary = `${file}.${process.pid}.tmp`
    writeFileSync(temporary, text, { mode: 0o600 })
    renameSync(temporary, file)
    users = next
    loadedMtime = -1
    checkedAt = 0
  }
  const find = (login: string) => {
    const user = fresh().find((u) => u.login === login)
    if (!user) throw new UsersError(`no user "${login}"`)
    return user
  }
  const newPassword = (given?: string) => {
    const password = given ?? generatePassword()
    if (normalizePassword(password).length < 12) throw new UsersError('an application password needs at least 12 characters')
    return { password, entry: { name: 'almanac', hash: hashPassword(password), created: new Date().toISOString() } }
  }

  load()
  return {
    authenticate(header) {
      if (header === null) return null
      const credentials = parseBasic(header)
      if (!credentials) throw apiError('incorrect_password')
      const user = fresh().find((u) => u.login === credentials.login)
      const digest = credentialDigest(credentials.login, credentials.password)
      const known = user ? verified.get(user.login) : undefined
      if (user && known && timingSafeEqual(known, digest)) return toCaller(user)
      // Unknown logins answer like wrong passwords, so the API does not tell which logins exist.
      if (!user || !user.passwords.some((p) => verifyPassword(credentials.password, p.hash))) throw apiError('incorrect_password')
      verified.set(user.login, digest)
      return toCaller(user)
    },
    list: () => fresh().map((user) => ({ ...user })),
    add(login, role, password) {
      if (!LOGIN.test(login)) throw new UsersError(`login "${login}" must be 1–60 letters, digits, . _ @ or -`)
      if (!isRole(role)) throw new UsersError(`unknown role "${role}"`)
      const current = fresh()
      if (current.some((u) => u.login === login)) throw new UsersError(`user "${login}" exists already`)
      const made = newPassword(password)
      const user: StoredUser = { id: Math.max(0, ...current.map((u) => u.id)) + 1, login, role, passwords: [made.entry] }
      save([...current, user])
      return { user, password: made.password }
    },
    remove(login) {
      find(login)
      save(fresh().filter((u) => u.login !== login))
    },
    resetPassword(login, password) {
      const user = find(login)
      const made = newPassword(password)
      save(fresh().map((u) => (u === user ? { ...u, passwords: [made.entry] } : u)))
      return made.password
    },
  }
}

function toCaller(user: StoredUser): Caller {
  return { id: user.id, login: user.login, role: user.role }
}

/** `Basic base64(login:password)`; null when the header is not that. */
export function parseBasic(header: string): { login: string; password: string } | null {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header)
  if (!m) return null
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 1) return null
  return { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) }
}

function parseUsers(file: string, text: string): StoredUser[] {
  const data = YAML.parse(text) as { users?: unknown } | null
  const list = Array.isArray(data?.users) ? data.users : []
  return list.map((raw: Record<string, unknown>, i: number) => {
    if (!Number.isInteger(raw?.id) || typeof raw.login !== 'string' || !isRole(raw.role) || !Array.isArray(raw.passwords)) {
      throw new UsersError(`${file}: user ${i + 1} needs an integer id, a login, a role and passwords`)
    }
    return raw as unknown as StoredUser
  })
}
