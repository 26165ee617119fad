import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parsedSpans, spansOf } from '../../src/content/files/front-matter-spans.ts'
import { readSimpleYaml } from '../../src/content/files/yaml-simple.ts'
import { block } from './yaml-blocks.ts'

// FC_SEED=<n> replays a failure (fast-check prints the seed and path in its message).
const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)

// An update keeps the lines of every value it did not change; which lines a key spans decides that.
// Blocks of one `key: value` line per key are spanned without parsing them as a YAML document.

describe('the lines a front matter key spans', () => {
  it('are the same found line by line as parsed, for every block the simple reader takes', () => {
    let simple = 0
    fc.assert(
      fc.property(block, (text) => {
        const lines = text.split('\n')
        if (readSimpleYaml(text)) simple++
        expect(spansOf(text, lines)).toEqual(parsedSpans(text, lines))
      }),
      { numRuns: 3000, seed },
    )
    expect(simple).toBeGreaterThan(200)
  })

  it('give each key of a plain block its own line, comments and blank lines to none', () => {
    const text = '\r\n# about\r\nid: 12\r\n\r\ntitle: "A: b" # quoted\r\ntags: [3, 7]\r\n'
    expect(spansOf(text, text.split('\n'))).toEqual([
      { key: 'id', from: 2, to: 3 },
      { key: 'title', from: 4, to: 5 },
      { key: 'tags', from: 5, to: 6 },
    ])
  })

  it('are refused for a key YAML reads as null or a boolean', () => {
    const text = '\nNull: 1\ntitle: x\n'
    expect(readSimpleYaml(text)).toBeDefined()
    expect(spansOf(text, text.split('\n'))).toBeNull()
  })
})
