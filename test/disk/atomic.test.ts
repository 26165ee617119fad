import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  isTemporaryName,
  replaceAtomic,
  replaceAtomicSync,
  temporaryBeside,
  writeFileAtomic,
  writeFileAtomicSync,
} from '../../src/disk/atomic.ts'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'almanac-atomic-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

describe('the one atomic write', () => {
  it('names its temporary files as the sweeper of a killed build recognises them', () => {
    const names = Array.from({ length: 20 }, () => basename(temporaryBeside(join(dir, 'x.json'))))
    expect(names.every(isTemporaryName)).toBe(true)
    expect(new Set(names).size).toBe(20)
    expect(['x.json', '.x.json.tmp', 'events.4242.1.k3j2h1.tmp', '.ids.yaml'].some(isTemporaryName)).toBe(false)
  })

  it('writes with the mode it is given, making the folder when asked, sync or not', async () => {
    writeFileAtomicSync(join(dir, 'a', 'users.yaml'), 'secret', { mode: 0o600, makeFolder: true })
    await writeFileAtomic(join(dir, 'b', 'c', 'page.json'), Buffer.from('{}'), { makeFolder: true, durable: false })
    expect((await stat(join(dir, 'a', 'users.yaml'))).mode & 0o777).toBe(0o600)
    expect(await readFile(join(dir, 'b', 'c', 'page.json'), 'utf8')).toBe('{}')
    await expect(writeFileAtomic(join(dir, 'missing', 'x'), 'x')).rejects.toThrow(/ENOENT/)
  })

  it('leaves the old file and no temporary file when making the new one fails halfway', async () => {
    const target = join(dir, 'page.json')
    await writeFile(target, 'old')
    const halfway = (temporary: string) => {
      writeFileSync(temporary, 'half of the new')
      throw new Error('disk full')
    }
    expect(() => replaceAtomicSync(target, halfway)).toThrow('disk full')
    await expect(replaceAtomic(target, async (temporary) => halfway(temporary))).rejects.toThrow('disk full')
    expect(await readFile(target, 'utf8')).toBe('old')
    expect(await readdir(dir)).toEqual(['page.json'])
  })
})
