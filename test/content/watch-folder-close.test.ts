import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { watchFolder } from '../../src/content/store/disk-watch.ts'

// The disk watch closes its worker once. A second close() (a shutdown racing an error's) used to post to a
// worker already gone, or take the first call's resolver, and wait out the 2 s fallback.

describe('closing a disk watch twice', () => {
  for (const how of ['one after the other', 'at once'])
    it(`is one close, ${how}`, async () => {
      const dir = await mkdtemp(join(tmpdir(), 'almanac-close-twice-'))
      try {
        await mkdir(join(dir, 'events'))
        const watch = watchFolder(dir, { changed: () => {}, failed: () => {} })
        await watch.ready
        const first = watch.close()
        if (how === 'one after the other') await first
        const second = watch.close()
        expect(second).toBe(first)
        await Promise.all([first, second])
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
    })
})
