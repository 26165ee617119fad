import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createDiskReader } from '../../src/content/files/read.ts'

// The reader appends a checked path to the folder joined with its separator, once. For '' that join is '/':
// a reader over the current folder, given as '', read from the file system's root, where path.join('', path)
// stays relative, as the rest of the driver does.

let dir: string
let cwd: string
beforeEach(() => {
  cwd = process.cwd()
  dir = mkdtempSync(join(tmpdir(), 'almanac-empty-dir-'))
  mkdirSync(join(dir, 'events'))
  writeFileSync(join(dir, 'events', 'a.md'), '---\nid: 1\n---\nhi\n')
  process.chdir(dir)
})
afterEach(() => {
  process.chdir(cwd)
  rmSync(dir, { recursive: true, force: true })
})

describe('a disk reader over the current folder given as ""', () => {
  it('reads the file under the current folder, as path.join did, not one under /', () => {
    const read = createDiskReader('', new Map()).readFromDisk('events/a.md')
    expect(read && 'text' in read ? read.text : read).toBe('---\nid: 1\n---\nhi\n')
  })
})
