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
})
