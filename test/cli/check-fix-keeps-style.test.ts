import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { checkContent } from '../../src/content/check.ts'
import { tempTree } from '../content/trees.ts'

const OUT_OF_ORDER = `---
# the town hall
venue: 'Town Hall'
id: 4
slug: town-hall
date: 2026-01-01 09:00:00
zip: "038981"   # keep the zero
phone: '+1 555 0100'
tags_note:
  - first
  - second
city: Springfield
---
The old town hall
`

const IN_ORDER = `---
id: 4
# the town hall
venue: 'Town Hall'
slug: town-hall
date: 2026-01-01 09:00:00
city: Springfield
zip: "038981"   # keep the zero
phone: '+1 555 0100'
tags_note:
  - first
  - second
---
The old town hall
`

let tree: Awaited<ReturnType<typeof tempTree>>
beforeEach(async () => {
  tree = await tempTree()
})
afterEach(async () => {
  await tree.cleanup()
})

describe('almanac check --fix', () => {
  it('puts keys in order by moving the lines the editor wrote, quotes and comments kept', async () => {
    await writeFile(join(tree.content, 'venues/town-hall.en.md'), OUT_OF_ORDER)
    const { fixed } = await checkContent(tree.content, true)
    expect(fixed).toContain('venues/town-hall.en.md: keys put in order')
    expect(await readFile(join(tree.content, 'venues/town-hall.en.md'), 'utf8')).toBe(IN_ORDER)
  })

  it('gives an id to a source fenced as ---yaml or starting with a byte-order mark, inside its own front matter', async () => {
    const yamlFenced =
      '---yaml\ntitle: Fenced\nstart_date: 2027-01-01 10:00:00\nend_date: 2027-01-01 11:00:00\n---\nHello.\n'
    await writeFile(join(tree.content, 'events/fenced.en.md'), yamlFenced)
    await writeFile(
      join(tree.content, 'events/bom.en.md'),
      `\uFEFF${yamlFenced.replace('---yaml', '---').replace('Fenced', 'Bom')}`,
    )
    const { problems } = await checkContent(tree.content, true)
    expect(problems.filter((p) => p.severity === 'error')).toEqual([])
    expect(await readFile(join(tree.content, 'events/fenced.en.md'), 'utf8')).toMatch(
      /^---yaml\nid: 1[78]\ntitle: Fenced\n/,
    )
    expect(await readFile(join(tree.content, 'events/bom.en.md'), 'utf8')).toMatch(
      /^\uFEFF---\nid: 1[78]\ntitle: Bom\n/,
    )
  })
})
