import YAML from 'yaml'
import { isRole, type Role } from './roles.ts'
import { parseLined, YamlSyntaxError, type LinedYaml } from '../yaml-lines.ts'

/** A user as the users file keeps it: application passwords only as hashes. */
export interface StoredUser {
  id: number
  login: string
  role: Role
  /** `hash` is whatever the file holds: one that is missing or malformed never matches. */
  passwords: { name: string; hash: string; created: string }[]
}

/** What the users file holds: the users, and the highest id ever handed out (ids are never reused). */
export interface UsersData {
  users: StoredUser[]
  highestId: number
}

/**
 * A login as logins are compared: without case, as WordPress finds a user (`Admin` signs in as `admin`), so a file
 * never holds two logins that differ only by case.
 */
export const loginKey = (login: string): string => login.toLowerCase()

/**
 * The user whose login is `login`, compared without case. Every signed-in request asks it, so each list of users
 * (never changed in place: a change of the file makes a new one) is indexed once: lower-casing ~1,100 logins per
 * request would cost ~50 µs.
 */
export function userByLogin<T extends { login: string }>(users: readonly T[], login: string): T | undefined {
  let index = indexes.get(users) as Map<string, T> | undefined
  if (!index) {
    index = new Map()
    for (const user of users) if (!index.has(loginKey(user.login))) index.set(loginKey(user.login), user)
    indexes.set(users, index)
  }
  return index.get(loginKey(login))
}

const indexes = new WeakMap<readonly object[], Map<string, object>>()

/** Thrown for a users-file operation that cannot be done, or a users file that cannot be read. */
export class UsersError extends Error {}

const HEADER = '# Almanac users (almanac user add|list|remove|reset-password). Keep this file out of git.\n'

/** The users file as text; `highest_id` keeps removed users' ids from being handed out again. */
export function formatUsers(data: UsersData): string {
  return `${HEADER}${YAML.stringify({ highest_id: data.highestId, users: data.users })}`
}

/**
 * Reads a users file, or says in one line what is wrong with it and on which line; `warn` hears what only
 * disables a password.
 */
export function parseUsers(file: string, text: string, warn: (message: string) => void = () => {}): UsersData {
  const at =
    (line: number | undefined) =>
    (problem: string): never => {
      throw new UsersError(`${file}:${line ?? 1}: ${problem}`)
    }
  let parsed: LinedYaml
  try {
    parsed = parseLined(text)
  } catch (error) {
    if (error instanceof YamlSyntaxError) return at(error.line)(`not valid YAML: ${error.problem}`)
    throw error
  }
  const data = parsed.data
  if (data === null || data === undefined) return { users: [], highestId: 0 }
  if (typeof data !== 'object' || Array.isArray(data)) return at(1)('expected a mapping with a `users` list')
  const { users: list = [], highest_id: highest = 0 } = data as { users?: unknown; highest_id?: unknown }
  if (!Array.isArray(list)) return at(parsed.lineOf(['users']))('`users` must be a list')
  if (!Number.isInteger(highest) || (highest as number) < 0)
    return at(parsed.lineOf(['highest_id']))('`highest_id` must be a whole number')
  const lineOfUser = (i: number) => parsed.lineOf(['users', i])
  const users = list.map((raw, i) => readUser(raw, `user ${i + 1}`, at(lineOfUser(i)), warn))
  const seen = { ids: new Set<number>(), logins: new Set<string>() }
  users.forEach((user, i) => {
    if (seen.ids.has(user.id)) at(lineOfUser(i))(`id ${user.id} is used by two users`)
    if (seen.logins.has(loginKey(user.login)))
      at(lineOfUser(i))(`login "${user.login}" is used by two users (logins are compared without case)`)
    seen.ids.add(user.id)
    seen.logins.add(loginKey(user.login))
  })
  return { users, highestId: Math.max(highest as number, ...users.map((user) => user.id)) }
}

function readUser(
  raw: unknown,
  where: string,
  fail: (problem: string) => never,
  warn: (message: string) => void,
): StoredUser {
  const user = (raw ?? {}) as Record<string, unknown>
  if (typeof raw !== 'object' || Array.isArray(raw)) fail(`${where} must be a mapping`)
  if (!Number.isInteger(user.id) || (user.id as number) < 1) fail(`${where} needs a positive whole-number id`)
  if (typeof user.login !== 'string' || user.login === '') fail(`${where} needs a login`)
  if (!isRole(user.role)) fail(`${where} (${String(user.login)}) has an unknown role ${JSON.stringify(user.role)}`)
  const passwords = user.passwords ?? []
  if (!Array.isArray(passwords) || passwords.some((p) => p === null || typeof p !== 'object' || Array.isArray(p))) {
    fail(`${where} (${String(user.login)}): passwords must be a list of mappings`)
  }
  for (const password of passwords as Record<string, unknown>[]) {
    if (typeof password.hash !== 'string')
      warn(`${where} (${String(user.login)}) has a password without a hash; it can never log in`)
  }
  return {
    id: user.id as number,
    login: user.login as string,
    role: user.role as Role,
    passwords: passwords as StoredUser['passwords'],
  }
}
