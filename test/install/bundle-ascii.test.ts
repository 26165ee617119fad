import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { runInNewContext } from 'node:vm'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { asciiOnly, BUNDLE_FILE } from '../../scripts/bundle.mjs'

const ROOT = resolve(import.meta.dirname, '../..')
const ASCII = /^[\0-\x7f]*$/

/** Text for the places the bundle keeps characters outside ASCII: letters, marks, CJK, symbols, emoji, ASCII letters. */
const text = fc.string({
  unit: fc.oneof(
    fc.constantFrom('a', 'Z', ' '),
    fc
      .integer({ min: 0x80, max: 0x10ffff })
      .filter((c) => c < 0xd800 || c > 0xdfff)
      .map((c) => String.fromCodePoint(c)),
  ),
  maxLength: 12,
})

/** Runs a program as written and as escaped, each in a fresh context. */
function both(program: string): [unknown, unknown] {
  const escaped = asciiOnly(program)
  expect(escaped).toMatch(ASCII)
  return [runInNewContext(program), runInNewContext(escaped)]
}

describe('the bundle written in ASCII (scripts/bundle.mjs)', () => {
  it('means the same program: comments, strings, regular expressions with and without u, escaped characters', () => {
    fc.assert(
      fc.property(text, (t) => {
        const programs = [
          `/* ${t} */ 1 // ${t}`,
          `'${t}'`,
          `\`${t}\``,
          `/^(?:${t})$/.test(${JSON.stringify(t)})`,
          `/^(?:${t})$/u.test(${JSON.stringify(t)})`,
          `[/^[${t}]*$/u.test(${JSON.stringify(t)}), /[^${t}a]/.test('a')]`,
          `'${[...t].map((c) => `\\${c}`).join('')}'`,
          `'\\\\${t}'`,
        ]
        for (const program of programs) {
          const [plain, escaped] = both(program)
          expect(escaped, program).toEqual(plain)
        }
      }),
      { numRuns: 300 },
    )
  })

  it('leaves ASCII as it is', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary-ascii' }), (t) => {
        expect(asciiOnly(t)).toBe(t)
      }),
    )
  })

  it('is what the compilation wrote, where it made a bundle', () => {
    const bundle = join(ROOT, 'lib', BUNDLE_FILE)
    // npm ci and npm install compile (the prepare script); an install without esbuild makes no bundle.
    if (!existsSync(bundle)) return
    const source = readFileSync(bundle, 'utf8')
    expect(source.length).toBeGreaterThan(1_000_000)
    expect(source).toMatch(ASCII)
    // Its first statement is the directive: src/ and the ES module dependencies it holds are strict code.
    expect(source.startsWith("'use strict'\n")).toBe(true)
  })
})
