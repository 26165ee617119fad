import { cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { measureBuildApart } from '../../scripts/bench/common/build-run.ts'
import { FIXTURES } from '../helpers.ts'

// The bench measures the static build in a child process of its own (build-child.ts), started with tsx.

const cwd = process.cwd()
let dir = ''
afterEach(async () => {
  process.chdir(cwd)
  await rm(dir, { recursive: true, force: true })
})

describe('the static build measured apart', () => {
  it('runs from any working folder, as the bench scripts did in process', async () => {
    dir = await mkdtemp(join(tmpdir(), 'almanac-build-apart-'))
    await cp(join(FIXTURES, 'series', 'content'), join(dir, 'content'), { recursive: true })
    process.chdir(dir)
    const run = await measureBuildApart({ content: join(dir, 'content'), out: join(dir, 'dist'), edits: 1, workers: 0 })
    expect(run.files).toBeGreaterThan(0)
    expect(run.oneEventMs).toHaveLength(1)
  }, 60_000)
})
