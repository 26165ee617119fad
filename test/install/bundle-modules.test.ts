import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { BUNDLE_FILE } from '../../scripts/bundle.mjs'

const ROOT = resolve(import.meta.dirname, '../..')
const work = mkdtempSync(join(tmpdir(), 'almanac-bundle-modules-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** What a real command required, by whom: every `require` (Node's `Module._load`) with the file that asked. */
function requiresOf(args: string[]): Array<[string, string | undefined]> {
  const probe = join(work, 'probe.cjs')
  const out = join(work, 'requires.json')
  writeFileSync(
    probe,
    [
      "const Module = require('node:module')",
      'const load = Module._load',
      'const seen = []',
      'Module._load = function (request, parent) { seen.push([request, parent?.filename]); return load.apply(this, arguments) }',
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(seen)))`,
    ].join('\n'),
  )
  execFileSync(process.execPath, ['--require', probe, join(ROOT, 'bin', 'almanac.js'), ...args], {
    cwd: work,
    stdio: 'ignore',
    timeout: 30_000,
  })
  return JSON.parse(readFileSync(out, 'utf8')) as Array<[string, string | undefined]>
}

describe('what a start of the bundle loads', () => {
  it('runs the bundle, and never esprima (js-yaml requires it for a type Almanac never reads)', () => {
    // npm ci and npm install compile (the prepare script); an install without esbuild makes no bundle.
    if (!existsSync(join(ROOT, 'lib', BUNDLE_FILE))) return
    const bundle = join(ROOT, 'lib', BUNDLE_FILE)
    const asked = requiresOf(['check', '--content', join(ROOT, 'content')])
    const byBundle = asked.filter(([, parent]) => parent === bundle).map(([request]) => request)
    // The bundle ran (its first line requires node:url) and read the demo calendar's front matter.
    expect(byBundle).toContain('node:url')
    expect(asked.map(([request]) => request).filter((request) => request.includes('esprima'))).toEqual([])
  })
})
