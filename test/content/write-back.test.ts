// Files written back by check --fix and by API writes keep what they were not asked to change: values as served
// (zip: 012345 is "012345", not the octal YAML reads), a ---yaml fence, comments, CRLF line ends (found by a review).
import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { checkContent } from '../../src/content/check.ts'
import { parseFrontMatter } from '../../src/content/files/front-matter.ts'
import { normalize } from '../../src/content/files/normalize.ts'
import { as, call, json, writableApp } from '../helpers.ts'
import { tempTree } from '../content/trees.ts'

let tree: Awaited<ReturnType<typeof tempTree>>
beforeEach(async () => {
  tree = await tempTree()
})
afterEach(async () => {
  await tree.cleanup()
})

const HALL = 'venues/hall.en.md'

/** A venue file after `check --fix` over a tree holding it alone, and what check said it fixed. */
async function afterFix(text: string): Promise<{ after: string; fixed: string[] }> {
  await writeFile(join(tree.content, HALL), text)
  const { fixed } = await checkContent(tree.content, true)
  return { after: await readFile(join(tree.content, HALL), 'utf8'), fixed }
}

const served = (text: string) => {
  const p = parseFrontMatter(text)
  return normalize(p.data, p.written)
}

describe('check --fix on a ---yaml file (README: the file opens with `---` (or `---yaml`))', () => {
  it('puts keys in order without changing values: zip 012345 stays "012345", phone 0x1F stays "0x1F"', async () => {
    const before =
      '---yaml\n# booked by Ann\nvenue: Hall\nid: 42\nslug: hall\ndate: 2026-01-01 00:00:00\nzip: 012345\nphone: 0x1F  # hex\n---\nBody\n'
    const { after } = await afterFix(before)
    expect(served(after)).toEqual(served(before))
    expect(after).toContain('# booked by Ann')
  })
})

describe('check --fix writing a date', () => {
  it('keeps a CRLF file CRLF when the date line goes last (no bare CR, no LF-only line)', async () => {
    const { after, fixed } = await afterFix('---\r\nid: 42\r\nvenue: Hall\r\nslug: hall\r\n---\r\nBody\r\n')
    expect(fixed.some((f) => f.includes('date'))).toBe(true)
    expect(after).not.toMatch(/\r\r|[^\r]\n/)
  })

  it('adds the date line without changing the bytes of any other line, in a file of mixed line ends', async () => {
    const { after } = await afterFix('---\r\nid: 42\nvenue: Hall\r\nslug: hall\n---\nBody\n')
    expect(after).toMatch(/^---\r\nid: 42\nvenue: Hall\r\nslug: hall\ndate: [^\r\n]+\n---\nBody\n$/)
  })

  it('never changes other values when the date line cannot simply be added (slug: 0123 stays "0123")', async () => {
    const { after } = await afterFix('---\nid: 42\nvenue: Hall\nslug: 0123\n...\n---\nBody\n')
    expect(served(after).slug).toBe('0123')
  })
})

describe("a PATCH of a venue's name only (README: a write leaves every line it did not change byte for byte)", () => {
  it('keeps a ---yaml fence, its comments and quotes', async () => {
    const after = await afterRename((text) =>
      text
        .replace(/^---\n/, '---yaml\n# the hall\n')
        .replace('city: Springfield', "city: 'Springfield'   # quoted on purpose"),
    )
    expect(after.startsWith('---yaml\n# the hall\n')).toBe(true)
    expect(after).toContain("city: 'Springfield'   # quoted on purpose\n")
  })

  it('keeps the body and the closing fence of a CRLF file as they were', async () => {
    const after = await afterRename((text) =>
      text.replace('The old town hall', 'The old town hall.\n\nBuilt in 1901.').replace(/\n/g, '\r\n'),
    )
    expect(after.endsWith('\r\n---\r\nThe old town hall.\r\n\r\nBuilt in 1901.\r\n')).toBe(true)
  })

  it('keeps the other lines of a file holding numbers JSON cannot write (-0.0, .inf), in lists too', async () => {
    const after = await afterRename((text) =>
      text
        .replace('city: Springfield', "city: 'Springfield'   # quoted on purpose\ngeo_lat: 51.4779\ngeo_lng: -0.0")
        .replace('show_map: true', 'show_map: true\nnote_for_editors: .inf\nbounds: [-0.0, .inf]'),
    )
    expect(after).toContain("city: 'Springfield'   # quoted on purpose\n")
    for (const line of ['geo_lng: -0.0', 'note_for_editors: .inf', 'bounds: [-0.0, .inf]'])
      expect(after).toContain(`${line}\n`)
  })
})

describe('check --fix putting keys in order of a plain --- file it cannot reorder line by line', () => {
  it('never changes values: zip 012345 stays "012345" (a |+ block scalar makes the line move fail)', async () => {
    const before =
      '---\n# booked by Ann\nvenue: Hall\nid: 42\ndate: 2026-01-01 00:00:00\nzip: 012345\nnotes: |+\n  keep the blank line after me\n\nslug: hall\n---\nBody\n'
    const { after } = await afterFix(before)
    expect(served(after)).toEqual(served(before))
  })
})

describe('check --fix is idempotent', () => {
  it('reports and rewrites nothing on a second run over a file with a numeric key', async () => {
    const { after: once } = await afterFix(
      '---\nid: 42\nvenue: Hall\nslug: hall\ndate: 2026-01-01 00:00:00\n2024: renovated\n---\nBody\n',
    )
    const second = await checkContent(tree.content, true)
    expect(await readFile(join(tree.content, HALL), 'utf8')).toBe(once)
    expect(second.fixed).toEqual([])
  })
})

/** The reference venue's file after a PATCH of its name alone, the file first edited by `edit` (and read again). */
async function afterRename(edit: (text: string) => string): Promise<string> {
  const app = await writableApp('reference')
  try {
    const path = 'venues/town-hall.en.md'
    await writeFile(join(app.content, path), edit(await readFile(join(app.content, path), 'utf8')))
    await app.store.reload([path])
    expect((await call(app, 'venues/4', json('PATCH', { venue: 'Town Hall B' }, as('admin')))).status).toBe(200)
    return await readFile(join(app.content, path), 'utf8')
  } finally {
    await rm(app.dir, { recursive: true, force: true })
  }
}
