import fc from 'fast-check'
import { foldLines } from 'ical-generator'
import { describe, expect, it } from 'vitest'
import { fold } from '../../src/serialize/feed/fold.ts'

// Almanac folds ASCII lines itself, for speed, and must fold them exactly as ical-generator's foldLines does.

const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)

describe('folding a VEVENT', () => {
  it('equals ical-generator foldLines on any text, ASCII or not, line by line', () => {
    const line = fc.oneof(
      fc.string({ unit: fc.constantFrom('a', 'Z', ' ', ';', '\\', ','), minLength: 60, maxLength: 400, size: 'max' }),
      fc.string({ unit: 'grapheme', minLength: 20, maxLength: 200, size: 'max' }),
      fc.string({ unit: 'binary-ascii', maxLength: 300, size: 'max' }),
      // Every width of UTF-8, astral pairs, and lone surrogates (which TextEncoder writes as U+FFFD).
      fc.string({
        unit: fc.constantFrom('a', 'é', '日', '😀', '\ud800', '\udc00', '\udbff', 'ß', ' '),
        minLength: 20,
        maxLength: 300,
        size: 'max',
      }),
    )
    fc.assert(
      fc.property(
        fc.array(
          line.map((text) => text.replace(/[\r\n]/g, '')),
          { maxLength: 6 },
        ),
        (lines) => {
          const text = lines.join('\r\n')
          expect(fold(text)).toBe(foldLines(text))
        },
      ),
      { numRuns: 400, seed },
    )
  })

  it('keeps every folded line within 75 octets', () => {
    const folded = fold(`DESCRIPTION:${'x'.repeat(500)}\r\nSUMMARY:${'日本語'.repeat(40)}`)
    expect(folded.split('\r\n').every((part) => Buffer.byteLength(part) <= 75)).toBe(true)
  })
})
