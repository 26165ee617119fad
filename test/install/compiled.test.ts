import { spawnSync } from 'node:child_process'
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { compiledIsCurrent, STAMP_FILE, sourceHash } from '../../bin/compiled.js'

const ROOT = resolve(import.meta.dirname, '../..')
const made: string[] = []
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A folder with a small src/ and a lib/ stamped as its compilation. */
function compiledTree(): { src: string; lib: string } {
  const dir = mkdtempSync(join(tmpdir(), 'almanac-compiled-'))
  made.push(dir)
  const [src, lib] = [join(dir, 'src'), join(dir, 'lib')]
  mkdirSync(join(src, 'cli'), { recursive: true })
  mkdirSync(lib)
  writeFileSync(join(src, 'app.ts'), 'export const a = 1\n')
  writeFileSync(join(src, 'cli/index.ts'), 'export const b = 2\n')
  writeFileSync(join(lib, STAMP_FILE), `${sourceHash(src)}\n`)
  return { src, lib }
}

describe('the compiled tree (lib/) the CLI runs instead of src/', () => {
  it('is current only while every file of src/ is what it was compiled from', () => {
    const { src, lib } = compiledTree()
    expect(compiledIsCurrent(src, lib)).toBe(true)
    appendFileSync(join(src, 'app.ts'), '// edited\n')
    expect(compiledIsCurrent(src, lib)).toBe(false)
    writeFileSync(join(src, 'app.ts'), 'export const a = 1\n')
    expect(compiledIsCurrent(src, lib)).toBe(true)
    writeFileSync(join(src, 'cli/new.ts'), '')
    expect(compiledIsCurrent(src, lib)).toBe(false)
    unlinkSync(join(src, 'cli/new.ts'))
    unlinkSync(join(src, 'cli/index.ts'))
    expect(compiledIsCurrent(src, lib)).toBe(false)
  })

  it('is not current when there is no stamp or no lib/', () => {
    const { src, lib } = compiledTree()
    unlinkSync(join(lib, STAMP_FILE))
    expect(compiledIsCurrent(src, lib)).toBe(false)
    expect(compiledIsCurrent(src, join(lib, 'missing'))).toBe(false)
  })

  it('is run by bin/almanac.js while current, and src/ through tsx once a source file is edited', () => {
    const dir = mkdtempSync(join(tmpdir(), 'almanac-bin-'))
    made.push(dir)
    for (const part of ['bin', 'src', 'package.json']) cpSync(join(ROOT, part), join(dir, part), { recursive: true })
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'))
    // A stand-in for the compilation, so the test can tell which of the two ran.
    mkdirSync(join(dir, 'lib/cli'), { recursive: true })
    writeFileSync(join(dir, 'lib/cli/index.js'), "console.log('compiled')\n")
    writeFileSync(join(dir, 'lib', STAMP_FILE), sourceHash(join(dir, 'src')))
    const version = () => spawnSync(process.execPath, [join(dir, 'bin/almanac.js'), '--version'], { encoding: 'utf8' })
    expect(version().stdout.trim()).toBe('compiled')
    appendFileSync(join(dir, 'src/cli/index.ts'), '// edited after the compilation\n')
    expect(version().stdout.trim()).toMatch(/^almanac \d+\.\d+\.\d+/)
  })

  it('runs the bundle of lib/ (lib/almanac.cjs) when the compilation made one, and lib/ as it is otherwise', () => {
    const dir = mkdtempSync(join(tmpdir(), 'almanac-bundle-'))
    made.push(dir)
    for (const part of ['bin', 'src', 'package.json']) cpSync(join(ROOT, part), join(dir, part), { recursive: true })
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'))
    mkdirSync(join(dir, 'lib/cli'), { recursive: true })
    writeFileSync(join(dir, 'lib/cli/index.js'), "console.log('compiled')\n")
    writeFileSync(join(dir, 'lib/almanac.cjs'), "console.log('bundled')\n")
    writeFileSync(join(dir, 'lib', STAMP_FILE), sourceHash(join(dir, 'src')))
    const version = () => spawnSync(process.execPath, [join(dir, 'bin/almanac.js'), '--version'], { encoding: 'utf8' })
    expect(version().stdout.trim()).toBe('bundled')
    unlinkSync(join(dir, 'lib/almanac.cjs'))
    expect(version().stdout.trim()).toBe('compiled')
  })
})
