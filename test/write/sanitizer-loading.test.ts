import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../..')

// Run in a child of its own: vitest's process may have loaded anything already.
const PROBE = `
import { createRequire } from 'node:module'
const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((path) => path.includes('/sanitize-html/'))
const { createApp } = await import('./src/app.ts')
const { sanitizeBody } = await import('./src/write/sanitize.ts')
const before = loaded()
const clean = sanitizeBody('<b>bold</b><script>x()</script>')
console.log(JSON.stringify({ before, after: loaded(), clean, app: typeof createApp }))
`

describe('sanitize-html, which only writes use', () => {
  it('is not loaded with the app, and is loaded by the first text that needs it', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', PROBE], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 30_000,
    })
    expect(JSON.parse(out)).toEqual({ before: false, after: true, clean: '<b>bold</b>', app: 'function' })
  })
})
