import {
  createHash,
  randomBytes,
  randomInt,
  scrypt,
  scryptSync,
  timingSafeEqual,
  type ScryptOptions,
} from 'node:crypto'

// scrypt, from node:crypto: a memory-hard slow hash with no native dependency to build.
// N = 2^14, r = 8, p = 1 is the interactive-login setting of its authors (about 16 MiB, ~50 ms).
const N = 16384
const R = 8
const P = 1
const KEY_LENGTH = 32
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/** A new application password: 24 random letters and digits, shown in groups of four as WordPress does. */
export function generatePassword(): string {
  const chars = Array.from({ length: 24 }, () => ALPHABET[randomInt(ALPHABET.length)])
  return chars.join('').replace(/(.{4})(?!$)/g, '$1 ')
}

/** Spaces are for reading only: WordPress ignores them in application passwords. */
export function normalizePassword(password: string): string {
  return password.replace(/\s+/g, '')
}

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64url. */
export function hashPassword(password: string): string {
  const salt = randomBytes(16)
  const hash = scryptSync(normalizePassword(password), salt, KEY_LENGTH, { N, r: R, p: P, maxmem: 64 * 1024 * 1024 })
  return ['scrypt', N, R, P, salt.toString('base64url'), hash.toString('base64url')].join('$')
}

const MAX_MEMORY = 64 * 1024 * 1024

/** The parts of a stored hash; null unless it is `scrypt$N$r$p$salt$hash` with parameters we would compute. */
function parseHash(stored: unknown): { salt: Buffer; expected: Buffer; options: ScryptOptions } | null {
  if (typeof stored !== 'string') return null
  const [scheme, n, r, p, salt, hash, extra] = stored.split('$')
  const [cost, block, parallel] = [Number(n), Number(r), Number(p)]
  if (scheme !== 'scrypt' || !salt || !hash || extra !== undefined) return null
  // A hand-edited file must not make one check cost seconds or gigabytes.
  if (
    !Number.isInteger(Math.log2(cost)) ||
    cost < 2 ||
    cost > 2 ** 17 ||
    !(block >= 1 && block <= 32) ||
    !(parallel >= 1 && parallel <= 4)
  )
    return null
  const expected = Buffer.from(hash, 'base64url')
  if (expected.length < 16 || expected.length > 64) return null
  return {
    salt: Buffer.from(salt, 'base64url'),
    expected,
    options: { N: cost, r: block, p: parallel, maxmem: MAX_MEMORY },
  }
}

/**
 * Checks a password against a stored hash in constant time, off the event loop (libuv's thread
 * pool). A hash that is missing or malformed is checked against a dummy of the same cost and never
 * matches, so it answers in the same time as a wrong password.
 */
export async function verifyPassword(password: string, stored: unknown): Promise<boolean> {
  const parsed = parseHash(stored)
  const { salt, expected, options } = parsed ?? parseHash(DUMMY_HASH)!
  const actual = await new Promise<Buffer | null>((done) => {
    try {
      scrypt(normalizePassword(password), salt, expected.length, options, (error, key) => done(error ? null : key))
    } catch {
      done(null) // parameters scrypt refuses (more memory than allowed): no match
    }
  })
  return parsed !== null && actual !== null && timingSafeEqual(actual, expected)
}

/** What a check that must fail is made against: the cost of a real hash, matching nothing. */
export const DUMMY_HASH = [
  'scrypt',
  N,
  R,
  P,
  randomBytes(16).toString('base64url'),
  randomBytes(KEY_LENGTH).toString('base64url'),
].join('$')

/** A digest of credentials, to remember a successful check without keeping the password. */
export function credentialDigest(login: string, password: string): Buffer {
  return createHash('sha256')
    .update(`${login}\0${normalizePassword(password)}`)
    .digest()
}
