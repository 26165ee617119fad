import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { UNSETTLED_EXIT } from '../../src/cli/exit-code.ts'

const MODULE = resolve(import.meta.dirname, '../../src/cli/exit-code.ts')

/** Runs `exitWith(<done>)` in a process of its own; how it ended and what it said. */
function run(done: string) {
  const program = `import { exitWith } from ${JSON.stringify(MODULE)}\nexitWith(${done})\n`
  const ran = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program], {
    encoding: 'utf8',
    timeout: 20_000,
  })
  return { code: ran.status, stderr: ran.stderr }
}

describe('the exit code of a command (src/cli/exit-code.ts)', () => {
  it('is 13, said in one line, when the command never settles and nothing is left to wait for', () => {
    const ran = run('new Promise(() => {})')
    expect(ran.code).toBe(UNSETTLED_EXIT)
    expect(ran.stderr).toBe('almanac: the command stopped before it finished\n')
  })

  it('is the command’s own once it settles, however late, and 0 says nothing', () => {
    expect(run('Promise.resolve(3)')).toEqual({ code: 3, stderr: '' })
    expect(run('new Promise((done) => setTimeout(() => done(0), 200))')).toEqual({ code: 0, stderr: '' })
    expect(run('new Promise((done) => setTimeout(() => done(2), 200))')).toEqual({ code: 2, stderr: '' })
  })

  it('leaves an ending that already failed as it is', () => {
    const ran = run('(process.exitCode = 4, new Promise(() => {}))')
    expect(ran.code).toBe(4)
    expect(ran.stderr).toBe('')
  })
})
