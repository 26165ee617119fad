import { describe, expect, it } from 'vitest'
import { parseFrontMatter, stringifyFrontMatter, updateFrontMatter } from '../../src/content/front-matter.ts'
import { KEY_ORDER } from '../../src/content/kinds.ts'
import { normalize } from '../../src/content/records.ts'

// Each input would take tens of seconds to a backtracking pattern (quadratic in the run of blanks),
// and one content file or one description must not hold the event loop: generous bounds, linear code.
const RUN = 100_000
const blanks = ' '.repeat(RUN)
const within = (ms: number, work: () => unknown) => {
  const started = performance.now()
  work()
  expect(performance.now() - started).toBeLessThan(ms)
}

describe('reading and writing content files', () => {
  it('takes linear time on long runs of blanks in the body', () => {
    within(1_000, () => expect(parseFrontMatter(`---\nid: 1\n---\nx${blanks}y`).body).toBe(`x${blanks}y`))
    within(1_000, () => stringifyFrontMatter({ id: 1 }, `x${blanks}y`, KEY_ORDER.events))
    within(1_000, () => updateFrontMatter('---\nid: 1\n---\nold\n', { id: 1 }, `x${blanks}y`, KEY_ORDER.events, normalize))
  })

  it('takes linear time on long runs of blank lines or spaces in the front matter', () => {
    within(1_000, () => expect(parseFrontMatter(`---\n${'\n'.repeat(RUN)}id: 1\n---\n`).data).toEqual({ id: 1 }))
    within(1_000, () => expect(parseFrontMatter(`---\nzip: 1${blanks}x\n---\n`).data.zip).toBe(`1${blanks}x`))
    within(1_000, () => expect(parseFrontMatter(`---\nzip: 012${blanks}\n---\n`).written).toEqual({ zip: '012' }))
  })
})
