// The fresh writer wrote -0, Infinity and NaN inside a list or a map as JSON does (0, null): a file holding such a
// list was never edited line by line (the edit never read as the fresh file), so any write rewrote it afresh, its
// comments and quotes lost and the list's values changed (found by a review).
import { rm } from 'node:fs/promises'
import { afterEach, describe, expect, it } from 'vitest'
import { parseFrontMatter } from '../../src/content/files/front-matter.ts'
import { updateFrontMatter } from '../../src/content/files/front-matter-write.ts'
import { normalize } from '../../src/content/files/normalize.ts'
import { KEY_ORDER } from '../../src/content/model/kinds.ts'

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

const served = (text: string) => {
  const p = parseFrontMatter(text)
  return normalize(p.data, p.written)
}

describe('updateFrontMatter on a file holding a list with -0.0 or .inf', () => {
  for (const list of ['[-0.0, 51.5]', '[1, .inf]', '[.nan]', '[1, {a: -0.0}]']) {
    it(`keeps the comment and the list ${list} when only venue changes`, () => {
      const before = `---\n# booked by Ann\nvenue: Hall\nspan: ${list}\n---\nBody\n`
      const p = parseFrontMatter(before)
      const data = { ...normalize(p.data, p.written), venue: 'Hall B' }
      const after = updateFrontMatter(before, data, p.body, KEY_ORDER.venues, normalize)
      expect(served(after).span).toEqual(served(before).span) // toEqual: -0 vs 0 aside, null vs Infinity fails
      expect(Object.is((served(after).span as number[])[0], (served(before).span as number[])[0])).toBe(true)
      expect(after).toContain('# booked by Ann')
    })
  }
})
