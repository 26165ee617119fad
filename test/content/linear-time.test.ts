import { describe, expect, it } from 'vitest'
import { parseFrontMatter } from '../../src/content/files/front-matter.ts'
import { stringifyFrontMatter, updateFrontMatter } from '../../src/content/files/front-matter-write.ts'
import { FrontMatterError } from '../../src/content/files/yaml-data.ts'
import { KEY_ORDER } from '../../src/content/model/kinds.ts'
import { normalize } from '../../src/content/files/normalize.ts'

// Each input would take tens of seconds to a backtracking pattern (quadratic in the run of blanks),
// and one content file or one description must not hold the event loop: generous bounds, linear code.
const RUN = 100_000
const blanks = ' '.repeat(RUN)
const within = (ms: number, work: () => unknown) => {
  const started = performance.now()
  work()
  expect(performance.now() - started).toBeLessThan(ms)
}

/** Front matter past MAX_FRONT_MATTER: refused, whatever it holds. */
const refused = (text: string) =>
  expect(() => parseFrontMatter(text)).toThrow(/front matter of more than 512 KiB is not read/)

describe('reading and writing content files', () => {
  it('takes linear time on long runs of blanks in the body', () => {
    within(1_000, () => expect(parseFrontMatter(`---\nid: 1\n---\nx${blanks}y`).body).toBe(`x${blanks}y`))
    within(1_000, () => stringifyFrontMatter({ id: 1 }, `x${blanks}y`, KEY_ORDER.events))
    within(1_000, () =>
      updateFrontMatter('---\nid: 1\n---\nold\n', { id: 1 }, `x${blanks}y`, KEY_ORDER.events, normalize),
    )
  })

  it('takes linear time on long runs of blank lines or spaces in the front matter', () => {
    within(1_000, () => expect(parseFrontMatter(`---\n${'\n'.repeat(RUN)}id: 1\n---\n`).data).toEqual({ id: 1 }))
    within(1_000, () => expect(parseFrontMatter(`---\nzip: 1${blanks}x\n---\n`).data.zip).toBe(`1${blanks}x`))
    within(1_000, () => expect(parseFrontMatter(`---\nzip: 012${blanks}\n---\n`).written).toEqual({ zip: '012' }))
    // A run of spaces inside a word of a flow list (found by a review: the word's trim was quadratic in it).
    within(1_000, () =>
      expect(parseFrontMatter(`---\ntags: [a${blanks}b, c]\n---\n`).data.tags).toEqual([`a${blanks}b`, 'c']),
    )
  })

  // gray-matter tests a block for emptiness with /^\s*#[^\n]+/gm: quadratic in a run of blank lines
  // (16,000 newlines took it 0.2 s, 100,000 seconds), so such blocks are cut without it.
  it('takes linear time on runs of blank lines of every kind, and of blank lines of spaces', () => {
    for (const blank of ['\n', '\r\n', '\r', ' \n', '\t\n', '\n#\n']) {
      within(1_000, () => expect(parseFrontMatter(`---\n${blank.repeat(RUN)}id: 1\n---\nBody`).data).toEqual({ id: 1 }))
    }
    // Blanks to that pattern, not to YAML: the file is refused or read, quickly either way.
    for (const blank of ['\u2028', '\u2029\n', '\u3000\n', '\u00a0\n', '\v\n']) {
      within(1_000, () =>
        expect(() => parseFrontMatter(`---\nid: 1\n${blank.repeat(RUN)}\n---\nBody`)).toThrow(FrontMatterError),
      )
    }
    within(1_000, () =>
      expect(parseFrontMatter(`---\n${`${' '.repeat(1_000)}\n`.repeat(500)}id: 1\n---\n`).data).toEqual({ id: 1 }),
    )
    // Past MAX_FRONT_MATTER (512 KiB) front matter is refused before it is read.
    within(1_000, () => refused(`---\n${`${' '.repeat(1_000)}\n`.repeat(1_000)}id: 1\n---\n`))
    within(1_000, () => expect(parseFrontMatter(`---${blanks}\n${'\n'.repeat(RUN)}---\n`).data).toEqual({}))
    within(1_000, () => expect(parseFrontMatter(`---\n${'\n'.repeat(RUN)}`).data).toEqual({}))
  })

  it('takes linear time on a megabyte of dashes, of fences and of comment lines', () => {
    const mb = 1 << 20
    within(1_000, () => expect(parseFrontMatter('-'.repeat(mb)).data).toEqual({}))
    within(1_000, () => expect(parseFrontMatter(`---\n${'-'.repeat(mb)}`).data).toEqual({}))
    within(1_000, () =>
      expect(parseFrontMatter(`---\nid: 1\n${'---\n'.repeat(mb / 4)}`).body).toBe('---\n'.repeat(mb / 4 - 1).trimEnd()),
    )
    within(1_000, () => expect(parseFrontMatter(`---\n${'#\n'.repeat(mb / 8)}---\n`).data).toEqual({}))
    within(1_000, () => refused(`---\n${'#\n'.repeat(mb / 2)}---\n`))
  })
})
