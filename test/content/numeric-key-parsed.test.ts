// A key such as `2024:` in a block the fast reader declines: the `yaml` package reads it as a number, and the spans
// of such a block were given up, so check --fix took JavaScript's key order (2024 first), found the keys out of
// order and rewrote the file afresh, and every write rewrote it too (found by a review).
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { checkContent } from '../../src/content/check.ts'
import { parseFrontMatter } from '../../src/content/files/front-matter.ts'
import { updateFrontMatter } from '../../src/content/files/front-matter-write.ts'
import { normalize } from '../../src/content/files/normalize.ts'
import { KEY_ORDER } from '../../src/content/model/kinds.ts'
import { tempTree } from '../content/trees.ts'

let tree: Awaited<ReturnType<typeof tempTree>>
beforeEach(async () => {
  tree = await tempTree()
})
afterEach(async () => {
  await tree.cleanup()
})

const before =
  '---\n# booked by Ann\nid: 42\nvenue: Hall\nslug: hall\ndate: 2026-01-01 00:00:00\n2024: renovated\nnote: |\n  first line\n  second line\n---\nBody\n'

describe('check --fix on a venue whose keys are in order, with a key 2024 and a block scalar', () => {
  it('changes nothing (keys already in order)', async () => {
    const path = join(tree.content, 'venues/hall.en.md')
    await writeFile(path, before)
    const { fixed } = await checkContent(tree.content, true)
    expect(fixed).toEqual([])
    expect(await readFile(path, 'utf8')).toBe(before)
  })
})

describe('a write to such a file', () => {
  it('keeps the comment and the block scalar as written', () => {
    const p = parseFrontMatter(before)
    const data = { ...normalize(p.data, p.written), venue: 'Hall B' }
    const after = updateFrontMatter(before, data, p.body, KEY_ORDER.venues, normalize)
    expect(after).toContain('# booked by Ann\n')
    expect(after).toContain('note: |\n  first line\n  second line\n')
  })
})
