import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { CACHE_SUFFIX } from '../../bin/bundle.js'
import { compiledIsCurrent } from '../../bin/compiled.js'
import { BUNDLE_FILE } from '../../scripts/bundle.mjs'
import { writeCodeCache } from '../../scripts/code-cache.mjs'

const ROOT = resolve(import.meta.dirname, '../..')
const RUNNER = pathToFileURL(join(ROOT, 'bin/bundle.js')).href
const made: string[] = []
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'almanac-code-cache-'))
  made.push(dir)
  return dir
}

/**
 * Runs `bundle` through bin/bundle.js in a process of its own (V8 takes a cache only in a fresh isolate), with
 * `args` as the command's; answers what it printed and what became of the cache.
 */
function run(bundle: string, args: string[] = [], writeCache = false): { out: string; cache: string } {
  const script = `import { runBundle } from ${JSON.stringify(RUNNER)}
const cache = runBundle(process.argv[1], { writeCache: ${writeCache} })
process.on('exit', () => process.stderr.write('cache:' + cache))`
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script, bundle, ...args], {
    encoding: 'utf8',
    timeout: 15_000,
  })
  expect(child.status, child.stderr).toBe(0)
  return { out: child.stdout, cache: /cache:(\w+)/.exec(child.stderr)?.[1] ?? '' }
}

/** A small CommonJS bundle: functions to compile, `require`, `module` and `__filename` as Node gives them. */
const BUNDLE = `const path = require('node:path')
function greet(name) { return 'hello ' + name + ' from ' + path.basename(__filename) }
module.exports = { greet }
console.log(greet(process.argv[2] ?? 'nobody'), typeof module.exports.greet)
`

describe('the bundle run with its code cache (bin/bundle.js)', () => {
  it('writes a cache as it exits, and a later start takes it and runs the same', () => {
    const bundle = join(folder(), 'bundle.cjs')
    writeFileSync(bundle, BUNDLE)
    expect(run(bundle, ['ada'])).toEqual({ out: 'hello ada from bundle.cjs function\n', cache: 'none' })
    expect(run(bundle, ['ada'], true).cache).toBe('none')
    const stamp = readFileSync(`${bundle}${CACHE_SUFFIX}`, 'latin1').split('\n')[0]
    expect(stamp).toMatch(/^almanac code cache [0-9a-f]{64} \d+ /)
    expect(stamp?.endsWith(` ${bundle}`)).toBe(true)
    expect(run(bundle, ['ada'])).toEqual({ out: 'hello ada from bundle.cjs function\n', cache: 'accepted' })
  })

  it('never runs a cache made for other bytes, even of the same length', () => {
    const bundle = join(folder(), 'bundle.cjs')
    writeFileSync(bundle, BUNDLE)
    run(bundle, [], true)
    // V8 itself would take this cache: it checks only the source's length.
    const changed = BUNDLE.replace("'hello '", "'HELLO '")
    expect(changed.length).toBe(BUNDLE.length)
    writeFileSync(bundle, changed)
    expect(run(bundle, ['bo'])).toEqual({ out: 'HELLO bo from bundle.cjs function\n', cache: 'none' })
  })

  it('never runs a cache made for the same bundle in another place, whose name V8 would put in every stack trace', () => {
    const [here, there] = [folder(), folder()]
    const traced = `function where() { return new Error('x').stack.split('\\n')[1] }\nconsole.log(where())\n`
    for (const dir of [here, there]) writeFileSync(join(dir, 'bundle.cjs'), traced)
    run(join(there, 'bundle.cjs'), [], true)
    writeFileSync(join(here, `bundle.cjs${CACHE_SUFFIX}`), readFileSync(join(there, `bundle.cjs${CACHE_SUFFIX}`)))
    const { out, cache } = run(join(here, 'bundle.cjs'))
    expect(cache).toBe('none')
    expect(out).toContain(join(here, 'bundle.cjs'))
    expect(run(join(there, 'bundle.cjs'))).toEqual({
      out: expect.stringContaining(join(there, 'bundle.cjs')),
      cache: 'accepted',
    })
  })

  it('never hands V8 damaged data (which V8 would run as it finds it), whichever bytes are damaged', () => {
    const bundle = join(folder(), 'bundle.cjs')
    writeFileSync(bundle, BUNDLE)
    run(bundle, [], true)
    const good = readFileSync(`${bundle}${CACHE_SUFFIX}`)
    const stampEnd = good.indexOf(10) + 1
    for (const at of [stampEnd + 20, Math.floor((stampEnd + good.length) / 2), good.length - 1]) {
      const damaged = Buffer.from(good)
      damaged[at]! ^= 0xff
      writeFileSync(`${bundle}${CACHE_SUFFIX}`, damaged)
      expect(run(bundle, ['cy']), `byte ${at}`).toEqual({ out: 'hello cy from bundle.cjs function\n', cache: 'none' })
    }
    writeFileSync(`${bundle}${CACHE_SUFFIX}`, good.subarray(0, good.length - 100))
    expect(run(bundle, ['cy']).cache).toBe('none')
  })

  it('warms the bundle with no settings of the machine: no config file found upward, no ALMANAC_*, no NODE_OPTIONS', () => {
    const dir = folder()
    const bundle = join(dir, 'bundle.cjs')
    // Stands in for the CLI: fails, saying what it was given, so that writeCodeCache reports it.
    writeFileSync(
      bundle,
      `const seen = { args: process.argv.slice(2), env: Object.keys(process.env).filter((k) => k === 'NODE_OPTIONS' || k.startsWith('ALMANAC_')) }
seen.config = require('node:fs').readFileSync(seen.args[seen.args.indexOf('--config') + 1], 'utf8')
throw new Error('seen ' + JSON.stringify(seen))\n`,
    )
    const names = ['NODE_OPTIONS', 'ALMANAC_TIMEZONE', 'TMPDIR'] as const
    const saved = names.map((name) => process.env[name])
    try {
      Object.assign(process.env, {
        NODE_OPTIONS: '--max-old-space-size=999',
        ALMANAC_TIMEZONE: 'Not/AZone',
        TMPDIR: dir,
      })
      writeFileSync(join(dir, 'almanac.config.yaml'), 'timezone: Not/AZone\n')
      const why = writeCodeCache(bundle, dir)
      const seen = JSON.parse(/seen (\{.*\})/.exec(why ?? '')?.[1] ?? '{}')
      expect(seen.env).toEqual([])
      expect(seen.config).toBe('')
      expect(seen.args).toEqual(expect.arrayContaining(['build', '--content', dir, '--languages', 'en']))
    } finally {
      for (const [i, name] of names.entries())
        if (saved[i] === undefined) delete process.env[name]
        else process.env[name] = saved[i]
    }
  })

  it('makes no cache, and says why, without content to warm with or when the command fails', () => {
    const dir = folder()
    const bundle = join(dir, 'bundle.cjs')
    writeFileSync(bundle, BUNDLE)
    expect(writeCodeCache(bundle, join(dir, 'missing'))).toMatch(/no .*missing to warm the bundle with/)
    writeFileSync(bundle, "throw new Error('broken bundle')\n")
    expect(writeCodeCache(bundle, dir)).toMatch(/could not be made \(.*broken bundle.*\)/)
    expect(existsSync(`${bundle}${CACHE_SUFFIX}`)).toBe(false)
  })

  it('writes no cache for a command that failed', () => {
    const bundle = join(folder(), 'bundle.cjs')
    writeFileSync(bundle, `${BUNDLE}process.exitCode = 2\n`)
    const child = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { runBundle } from ${JSON.stringify(RUNNER)}\nrunBundle(process.argv[1], { writeCache: true })`,
        bundle,
      ],
      { encoding: 'utf8', timeout: 15_000 },
    )
    expect(child.status).toBe(2)
    expect(existsSync(`${bundle}${CACHE_SUFFIX}`)).toBe(false)
  })

  it('after a failed warm-up, keeps a cache another install made for the same bytes and drops one for other bytes', () => {
    const dir = folder()
    const bundle = join(dir, 'bundle.cjs')
    // Fails when the content it is warmed with holds a file named `fail`; the same bytes either way.
    writeFileSync(
      bundle,
      `const at = process.argv.indexOf('--content')
if (at > 0 && require('node:fs').existsSync(process.argv[at + 1] + '/fail')) throw new Error('told to fail')
${BUNDLE}`,
    )
    const failing = join(dir, 'failing')
    mkdirSync(failing)
    writeFileSync(join(failing, 'fail'), '')
    // Another install's: made by a warm-up that succeeded, for these very bytes.
    expect(writeCodeCache(bundle, dir)).toBeUndefined()
    const theirs = readFileSync(`${bundle}${CACHE_SUFFIX}`)
    expect(writeCodeCache(bundle, failing)).toMatch(/could not be made \(.*told to fail.*\)/)
    expect(readFileSync(`${bundle}${CACHE_SUFFIX}`).equals(theirs)).toBe(true)
    expect(run(bundle, ['ada']).cache).toBe('accepted')
    // The same bundle with one byte more: the cache is for other bytes now, and goes.
    writeFileSync(bundle, `${readFileSync(bundle, 'utf8')}\n`)
    expect(writeCodeCache(bundle, failing)).toMatch(/told to fail/)
    expect(existsSync(`${bundle}${CACHE_SUFFIX}`)).toBe(false)
  })

  // npm ci and npm install compile and make the cache (the prepare script); an edited src/ runs through tsx instead.
  it.skipIf(!compiledIsCurrent(join(ROOT, 'src'), join(ROOT, 'lib')) || !existsSync(join(ROOT, 'lib', BUNDLE_FILE)))(
    'is made by the compilation for the CLI bundle, and this Node takes it',
    () => {
      const bundle = join(ROOT, 'lib', BUNDLE_FILE)
      const { out, cache } = run(bundle, ['--version'])
      expect(out.trim()).toMatch(/^almanac \d+\.\d+\.\d+/)
      expect(cache).toBe('accepted')
    },
  )

  // It runs at every install, over whatever content/ a clone holds: a pull request's files included.
  it.skipIf(!compiledIsCurrent(join(ROOT, 'src'), join(ROOT, 'lib')) || !existsSync(join(ROOT, 'lib', BUNDLE_FILE)))(
    'warms the bundle without writing a byte of the content tree, a file without id and a broken file in it',
    () => {
      const content = join(folder(), 'content')
      cpSync(join(ROOT, 'content'), content, { recursive: true })
      writeFileSync(
        join(content, 'events/no-id-yet.en.md'),
        '---\ntitle: No id yet\nstart_date: 2027-01-02 10:00\n---\nHi\n',
      )
      writeFileSync(join(content, 'events/broken.en.md'), '---\nid: [unclosed\n---\n')
      const before = snapshot(content)
      const bundle = join(ROOT, 'lib', BUNDLE_FILE)
      expect(writeCodeCache(bundle, content)).toBeUndefined()
      expect(snapshot(content)).toEqual(before)
      expect(run(bundle, ['--version']).cache).toBe('accepted')
    },
  )
})

/** Every file under `dir` and its bytes. */
function snapshot(dir: string): Map<string, string> {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile())
  return new Map(
    files.map((entry) => [
      join(entry.parentPath, entry.name),
      readFileSync(join(entry.parentPath, entry.name), 'base64'),
    ]),
  )
}
