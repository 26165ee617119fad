import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { encodeForm } from '../../src/query/paging.ts'

// encodeForm passes letters, digits, `-`, `_` and `.` through untouched; everything else goes the long way. The
// property holds the shortcut to the long way (PHP's urlencode, as the reference's links are written).
const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)

function urlencode(value: string): string {
  return encodeURIComponent(value)
    .replace(/%20/g, '+')
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}

describe('encodeForm', () => {
  it('writes what PHP urlencode writes, for any text', () => {
    const text = fc.oneof(
      fc.string({ unit: fc.constantFrom(..."aZ09-_.~!*()' +&=%/?#éü中".split('')) }),
      fc.string({ unit: 'grapheme' }),
      fc.stringMatching(/^[\w.-]*$/),
      // Mostly the shortcut's own characters, with one of those PHP encodes and encodeURIComponent does not.
      fc.stringMatching(/^[\w.-]*[!'()*~][\w.-]*$/),
    )
    fc.assert(
      fc.property(text, (value) => {
        expect(encodeForm(value), `seed ${SEED}`).toBe(urlencode(value))
      }),
      { seed: SEED, numRuns: 500 },
    )
  })

  it('encodes the characters PHP encodes and encodeURIComponent does not', () => {
    expect(encodeForm("a b!'()*~")).toBe('a+b%21%27%28%29%2A%7E')
    expect(encodeForm('2026-11-29_x.y')).toBe('2026-11-29_x.y')
    expect(encodeForm('a~b')).toBe('a%7Eb')
    expect(encodeForm("it's")).toBe('it%27s')
    expect(encodeForm('')).toBe('')
  })
})
