import { createHash, randomBytes, randomInt, scryptSync, timingSafeEqual } from 'node:crypto'

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

/** Checks a password against a stored hash in constant time; false for a malformed hash. */
export function verifyPassword(password: string, stored: string): boolean {
  const [scheme, n, r, p, salt, hash] = stored.split('$')
  if (scheme !== 'scrypt' || !salt || !hash) return false
  const expected = Buffer.from(hash, 'base64url')
  const actual = scryptSync(normalizePassword(password), Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n), r: Number(r), p: Number(p), maxmem: 64 * 1024 * 1024,
  })
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

/** A digest of credentials, to remember a successful check without keeping the password. */
export function credentialDigest(login: string, password: string): Buffer {
  return createHash('sha256').update(`${login}\0${normalizePassword(password)}`).digest()
}
