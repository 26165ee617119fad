import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createDiskReader, type FileStamp } from '../../src/content/files/read.ts'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function tree(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), 'almanac-read-'))
  dirs.push(dir)
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
  return dir
}

describe('reading content files through one reader', () => {
  it('gives each file its own text, whether it fits the reused buffer or not, and texts read earlier stay whole', () => {
    const big = `---\nid: 1\n---\n${'பெரிய நிகழ்வு '.repeat(10_000)}` // about 200 KB: past the reused buffer
    const files = { 'a.md': '---\nid: 2\ntitle: Short\n---\nBody', 'b.md': big, 'c.md': 'x', 'd.md': '', 'e.md': 'é' }
    const reader = createDiskReader(tree(files), new Map<string, FileStamp>())
    const texts = Object.keys(files).map((name) => reader.readFromDisk(name))
    expect(texts.map((read) => read && 'text' in read && read.text)).toEqual(Object.values(files))
  })

  it('decodes bytes that are not UTF-8 as readFileSync does, with replacement characters', () => {
    const bytes = Buffer.from([0x2d, 0xff, 0xc3, 0x28, 0xe2, 0x82, 0x0a, 0xf0, 0x9f, 0x98, 0x80, 0xed, 0xa0, 0x80])
    const dir = tree({ 'bad.md': bytes })
    const reader = createDiskReader(dir, new Map<string, FileStamp>())
    expect(reader.readFromDisk('bad.md')).toMatchObject({ text: readFileSync(join(dir, 'bad.md'), 'utf8') })
  })
})
