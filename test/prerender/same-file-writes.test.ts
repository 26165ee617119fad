import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Manifest } from '../../src/prerender/manifest.ts'
import { createOutput } from '../../src/prerender/output-files.ts'

// An update's writes go out while it renders on: two puts of one file in flight must land in order, and `drain`
// (and `holds`, which a conditional feed ask relies on) must wait for both.

describe('two writes of one file in flight', () => {
  it('land in the order they were put, and drain waits for both', async () => {
    const out = await mkdtemp(join(tmpdir(), 'almanac-same-file-'))
    try {
      const output = createOutput(out, new Manifest(), false)
      await output.put('g.json', Buffer.from('x')) // the folder is there
      await output.drain()
      await output.put('f.ics', Buffer.alloc(200 * 1024 * 1024, 'a'))
      await output.put('f.ics', Buffer.from('c'))
      expect(output.holds('f.ics')).toBe(false)
      await output.drain()
      expect(output.holds('f.ics')).toBe(true)
      // Long enough for a first write drain forgot to land after the second (it did before writes were chained).
      await new Promise((resolve) => setTimeout(resolve, 2000))
      expect((await readFile(join(out, 'f.ics'))).toString()).toBe('c')
      expect(output.manifest.get('f.ics')?.bytes).toBe(1)
    } finally {
      await rm(out, { recursive: true, force: true })
    }
  })
})
