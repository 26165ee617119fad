import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import { partOf, sourceFiles, specifiers } from './imports.ts'

// scripts/bench/ is split by what it measures (docs/architecture.md §8): each subject folder has one entry,
// main.ts, run by `npm run bench:<subject>`, and imports nothing from another subject, only common/ (and
// src/); common/ imports no subject. all.ts, `npm run bench`, sits above them and runs them in turn.

const BENCH = resolve(import.meta.dirname, '../../scripts/bench')
/** Every folder of scripts/bench/ but common/ is a subject: a new one is checked like the others. */
const SUBJECTS = readdirSync(BENCH, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'common')
  .map((entry) => entry.name)
/** Every import from one part of scripts/bench/ into another, as `from -> to (file imports spec)`. */
function crossImports(): { from: string; to: string; why: string }[] {
  const files = sourceFiles(BENCH).map((file) => relative(BENCH, file))
  return files.flatMap((name) => {
    const file = join(BENCH, name)
    const text = readFileSync(file, 'utf8')
    return specifiers(text)
      .map((spec) => resolve(dirname(file), spec))
      .filter((target) => target.startsWith(BENCH + sep) && partOf(BENCH, target) !== partOf(BENCH, file))
      .map((target) => ({
        from: partOf(BENCH, file),
        to: partOf(BENCH, target),
        why: `${name} imports ${relative(BENCH, target)}`,
      }))
  })
}

describe('scripts/bench is split by subject', () => {
  const edges = crossImports()

  it('sees the imports it checks (the entry of every subject imports common/)', () => {
    expect(SUBJECTS).toEqual(expect.arrayContaining(['reads', 'writes', 'watch', 'build', 'hostile']))
    for (const subject of ['reads', 'writes', 'watch']) expect(edges.some((e) => e.from === subject)).toBe(true)
    expect(edges.filter((e) => e.from === 'all').map((e) => e.to)).toEqual(
      expect.arrayContaining(['reads', 'writes', 'watch', 'build']),
    )
  })

  it('lets a subject import only common/, and common/ import no subject', () => {
    const allowed = (e: { from: string; to: string }) => e.from === 'all' || e.to === 'common'
    expect(edges.filter((e) => !allowed(e)).map((e) => e.why)).toEqual([])
  })

  it('gives every subject one entry, main.ts, run by npm run bench:<subject>', () => {
    const scripts = (JSON.parse(readFileSync(join(BENCH, '../../package.json'), 'utf8')) as { scripts: object })
      .scripts as Record<string, string>
    for (const subject of SUBJECTS) {
      expect(existsSync(join(BENCH, subject, 'main.ts'))).toBe(true)
      expect(scripts[`bench:${subject}`]).toBe(`tsx scripts/bench/${subject}/main.ts`)
    }
    expect(scripts.bench).toBe('tsx scripts/bench/all.ts')
  })
})
