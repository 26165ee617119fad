import { timingSafeEqual } from 'node:crypto'
import { availableParallelism } from 'node:os'
import { apiError, tooManyLoginAttempts } from '../errors.ts'
import { createFailureLimiter, createGate, GateFullError } from './limiter.ts'
import { credentialDigest, DUMMY_HASH, verifyPassword } from './passwords.ts'
import type { Caller } from './roles.ts'
import { loginKey, type StoredUser, userByLogin } from './users-file.ts'

/** How many failed logins are let through before 429: per login from one address, and per client address. */
export interface LoginLimits {
  perLogin: number
  perAddress: number
  windowMs: number
  maxKeys: number
  /** Password checks that may wait (WAITING_CHECKS unless given). */
  waitingChecks?: number
}

/**
 * Like WordPress lockout plugins (a few retries, then a lockout of some minutes), answered the REST
 * way: 429 with Retry-After. A login's limit is lower than an address's, which may be shared.
 */
export const DEFAULT_LIMITS: LoginLimits = { perLogin: 10, perAddress: 30, windowMs: 15 * 60_000, maxKeys: 10_000 }

/**
 * How many password checks may wait for those that run (two at most). A check takes ~40 ms (scrypt, on the shared
 * 2-core machine), so the last of them waits ~5 s; a sign-in past them (a storm of wrong passwords from many addresses,
 * each under its own limit) is answered 429 at once, with that wait as Retry-After, instead of queueing for minutes
 * with every sign-in after it. Callers that signed in already pay no check and are never turned away.
 */
export const WAITING_CHECKS = 256
const BUSY_WAIT_MS = 5_000

/** Checks `Authorization: Basic` credentials against the users; owned by one users directory. */
export interface LoginChecker {
  check(header: string, address: string | undefined, users: StoredUser[]): Promise<Caller>
  /**
   * The caller credentials that checked out once already name among `users` now, or null: counted against no
   * limit (nothing is guessed: the request was let in with them), so a write's second look never locks anyone out.
   */
  again(header: string, users: StoredUser[]): Promise<Caller | null>
  /** The users changed (now `users`): forgets remembered successful checks but those of unchanged passwords. */
  forget(users: StoredUser[]): void
}

export function createLoginChecker(limits: LoginLimits = DEFAULT_LIMITS, now: () => number = Date.now): LoginChecker {
  const logins = createFailureLimiter({
    limit: limits.perLogin,
    windowMs: limits.windowMs,
    maxKeys: limits.maxKeys,
    now,
  })
  const addresses = createFailureLimiter({
    limit: limits.perAddress,
    windowMs: limits.windowMs,
    maxKeys: limits.maxKeys,
    now,
  })
  // At most two hashes at a time, leaving a core to the event loop and libuv's pool to file I/O.
  const gate = createGate(Math.max(1, Math.min(2, availableParallelism() - 1)), limits.waitingChecks ?? WAITING_CHECKS)
  // Successful checks, as credential digests with the password hashes they were checked against: a request does not
  // pay scrypt each time.
  let verified = new Map<string, { digest: Buffer; hashes: string }>()
  // Credentials a write's second look found wrong (`again`): a write held open with a password reset meanwhile
  // pays no hash in the write queue once another such write has.
  let refused = new Set<string>()
  // Which users the checks are against: every change of the users file (`forget`) starts a new generation. A
  // check that began before one neither fills the cache after it nor lends its answer to a check begun after.
  let generation = 0
  // Checks under way, by generation and credential digest: a client's burst of requests pays for one hash.
  const pending = new Map<string, Promise<boolean>>()

  const matches = async (user: StoredUser | undefined, password: string) => {
    // An unknown login, or a user without a password, costs one hash too: the answer tells nothing.
    const hashes: unknown[] = user && user.passwords.length > 0 ? user.passwords.map((p) => p.hash) : [DUMMY_HASH]
    let ok = false
    for (const hash of hashes) ok = (await gate(() => verifyPassword(password, hash))) || ok
    return ok && user !== undefined
  }

  // Settles who may try now, and counts the try before the check, so many tries at once count as many.
  // A login's failures count per address: a stranger who knows a login must not lock its owner
  // out from everywhere; each address has its own allowance across every login it tries.
  // Without case, as users are found: `Admin` and `admin` are one login, and share one allowance.
  const limitKey = (login: string, address: string | undefined) =>
    address === undefined ? loginKey(login) : `${loginKey(login)}\n${address}`
  const admit = (login: string, address: string | undefined) => {
    const wait = Math.max(
      logins.waitFor(limitKey(login, address)),
      address === undefined ? 0 : addresses.waitFor(address),
    )
    if (wait > 0) throw tooManyLoginAttempts(wait)
    logins.count(limitKey(login, address))
    if (address !== undefined) addresses.count(address)
  }
  const shared = (digest: Buffer, check: () => Promise<boolean>) => {
    const key = `${generation}:${digest.toString('base64')}`
    let running = pending.get(key)
    if (!running) pending.set(key, (running = check().finally(() => pending.delete(key))))
    return running
  }

  return {
    async check(header, socketAddress, users) {
      const credentials = parseBasic(header)
      if (!credentials) throw apiError('incorrect_password')
      const { login, password } = credentials
      const address = socketAddress === undefined ? undefined : clientKey(socketAddress)
      const user = userByLogin(users, login)
      // The digest names the user's own login: `Admin` and `admin` with one password are one credential.
      const digest = credentialDigest(user?.login ?? login, password)
      const known = user ? verified.get(user.login) : undefined
      if (user && known && timingSafeEqual(known.digest, digest)) return toCaller(user)
      admit(login, address)
      const at = generation
      const ok = await shared(digest, () => matches(user, password)).catch((error: unknown) => {
        // Turned away unchecked: the try is not counted against anyone.
        if (error instanceof GateFullError) {
          logins.forgive(limitKey(login, address))
          if (address !== undefined) addresses.forgive(address)
        }
        throw busy(error)
      })
      if (!ok) throw apiError('incorrect_password')
      logins.clear(limitKey(login, address))
      if (address !== undefined) addresses.forgive(address)
      if (at === generation) verified.set(user!.login, { digest, hashes: hashesOf(user!) })
      return toCaller(user!)
    },
    async again(header, users) {
      const credentials = parseBasic(header)
      if (!credentials) return null
      const { login, password } = credentials
      const user = userByLogin(users, login)
      if (!user) return null
      const digest = credentialDigest(user.login, password)
      const known = verified.get(user.login)
      if (known && timingSafeEqual(known.digest, digest)) return toCaller(user)
      const at = generation
      const key = `${at}:${digest.toString('base64')}`
      if (refused.has(key)) return null
      if (
        !(await shared(digest, () => matches(user, password)).catch((error: unknown) => Promise.reject(busy(error))))
      ) {
        if (at === generation) refused.add(key)
        return null
      }
      if (at === generation) verified.set(user.login, { digest, hashes: hashesOf(user) })
      return toCaller(user)
    },
    forget(users) {
      // Credentials that signed in keep working, even from an address locked out since, while their user's
      // passwords are the same: a change of the users file (any user added, a role) must not end them.
      const kept = new Map<string, { digest: Buffer; hashes: string }>()
      for (const user of users) {
        const known = verified.get(user.login)
        if (known && known.hashes === hashesOf(user)) kept.set(user.login, known)
      }
      verified = kept
      refused = new Set()
      generation++
    },
  }
}

/** A check the gate turned away, as the 429 it is answered with; any other error as it is. */
function busy(error: unknown): unknown {
  return error instanceof GateFullError ? tooManyLoginAttempts(BUSY_WAIT_MS) : error
}

/** A user's password hashes, as one text: a remembered check holds while they are the same. */
const hashesOf = (user: StoredUser) => user.passwords.map((password) => password.hash).join('\n')

/**
 * Whom an address stands for: an IPv4 address itself (also when IPv4-mapped), an IPv6 address by
 * its /64, which one subscriber usually holds whole (else each of its 2^64 addresses would get a
 * fresh allowance).
 */
export function clientKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped) return mapped[1]!
  if (!address.includes(':')) return address
  const [head = '', tail] = address.toLowerCase().split('%')[0]!.split('::')
  const left = head === '' ? [] : head.split(':')
  const right = tail === undefined || tail === '' ? [] : tail.split(':')
  const groups =
    tail === undefined ? left : [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`
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
