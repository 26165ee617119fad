import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkContent } from '../../src/content/check.ts'

const DEMO = resolve(import.meta.dirname, '../../content')

/** Every file under a folder, relative path → bytes. */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>()
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    files.set(path.slice(dir.length + 1), (await readFile(path)).toString('base64'))
  }
  return files
}

describe('the shipped demo calendar', () => {
  it('is in canonical form: check --fix on a copy of it changes no file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'almanac-demo-'))
    try {
      await cp(DEMO, dir, { recursive: true })
      const before = await snapshot(dir)
      const { fixed, problems } = await checkContent(dir, true)
      expect(fixed).toEqual([])
      expect(problems.filter((p) => p.severity !== 'warning')).toEqual([])
      expect(await snapshot(dir)).toEqual(before)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
