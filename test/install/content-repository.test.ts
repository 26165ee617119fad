import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compiledIsCurrent } from '../../bin/compiled.js'

// Almanac packed as a release is, installed into an empty project of its own (as a team keeps its
// content in its own repository), then run there with npx. Everything comes from the npm cache
// that `npm ci` filled: the test never reaches a registry.

const ROOT = resolve(import.meta.dirname, '../..')
const LIMIT = 120_000
/** npm and npx as the test runs them: from the cache only, quiet about audits, funding and updates. */
const NPM_ENV = {
  ...process.env,
  npm_config_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
}

interface Run {
  code: number
  stdout: string
  stderr: string
}

function run(command: string, args: string[], cwd: string): Promise<Run> {
  return new Promise((done) => {
    execFile(command, args, { cwd, env: NPM_ENV, timeout: LIMIT / 2, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0
      done({ code, stdout, stderr })
    })
  })
}

// A month from now: inside the window a list shows by default, whenever the test runs.
const DAY = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10)
const EVENT = `---
id: 1
title: Open House
slug: open-house
date: 2026-01-05 09:00:00
start_date: ${DAY} 10:00:00
end_date: ${DAY} 12:00:00
timezone: Asia/Singapore
---
Come and see the new hall.
`

/**
 * The project's lockfile: the tarball, and Almanac's own locked runtime dependencies (where npm
 * puts them when Almanac is the only dependency), so npm installs exactly what `npm ci` cached.
 */
async function lockfileFor(tarball: string): Promise<object> {
  const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'))
  const lock = JSON.parse(await readFile(join(ROOT, 'package-lock.json'), 'utf8'))
  const integrity = `sha512-${createHash('sha512')
    .update(await readFile(tarball))
    .digest('base64')}`
  const spec = `file:${tarball}`
  const packages: Record<string, unknown> = {
    '': { name: 'our-calendar', dependencies: { almanac: spec } },
    'node_modules/almanac': {
      version: manifest.version,
      resolved: spec,
      integrity,
      license: manifest.license,
      dependencies: manifest.dependencies,
      bin: manifest.bin,
      engines: manifest.engines,
    },
  }
  for (const [path, entry] of Object.entries(lock.packages as Record<string, { dev?: boolean }>))
    if (path && !entry.dev) packages[path] = entry
  return { name: 'our-calendar', lockfileVersion: 3, requires: true, packages }
}

describe('Almanac installed into a content repository', () => {
  let dir: string
  let project: string
  let packed: string[]
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'almanac-pack-'))
    project = join(dir, 'our-calendar')
    const pack = await run('npm', ['pack', '--json', '--pack-destination', dir], ROOT)
    expect(pack.code, pack.stderr).toBe(0)
    const [info] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[]
    packed = info!.files.map((file) => file.path)
    const tarball = join(dir, info!.filename)
    await mkdir(join(project, 'content/events'), { recursive: true })
    await writeFile(join(project, 'content/events/open-house.en.md'), EVENT)
    await writeFile(join(project, 'almanac.config.yaml'), 'timezone: Asia/Singapore\nsite_name: Our Calendar\n')
    await writeFile(
      join(project, 'package.json'),
      JSON.stringify({ name: 'our-calendar', private: true, dependencies: { almanac: `file:${tarball}` } }),
    )
    await writeFile(join(project, 'package-lock.json'), JSON.stringify(await lockfileFor(tarball)))
    const install = await run('npm', ['install', '--offline', '--no-audit', '--no-fund'], project)
    if (install.code !== 0) {
      const uncached = /ENOTCACHED/.test(install.stderr)
        ? 'a package is not in the npm cache: run `npm ci` in the Almanac checkout first (this test installs offline). '
        : ''
      throw new Error(`npm install --offline failed: ${uncached}npm said:\n${install.stderr}`)
    }
  }, LIMIT)
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it('packs the program and its documents, not the tests, benchmarks or demo', () => {
    expect(packed).toContain('bin/almanac.js')
    expect(packed).toContain('src/cli/index.ts')
    expect(packed).toContain('src/prerender/render-worker.mjs')
    // Compiled, so an install starts without TypeScript at run time; the stamp says from which source.
    expect(packed).toEqual(
      expect.arrayContaining(['lib/cli/index.js', 'lib/prerender/render-worker.mjs', 'lib/.source-hash']),
    )
    expect(packed).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE']))
    expect(
      packed.filter((path) => /^(test|scripts|content|\.ci)\//.test(path) || path === 'almanac.config.yaml'),
    ).toEqual([])
  })

  it('installs a compilation that is current for the source it ships, so npx almanac runs it', () => {
    const installed = join(project, 'node_modules/almanac')
    expect(compiledIsCurrent(join(installed, 'src'), join(installed, 'lib'))).toBe(true)
  })

  it(
    'checks the project’s content with npx almanac check, and fails on a broken file',
    async () => {
      const ok = await run('npx', ['almanac', 'check'], project)
      expect(ok.code, ok.stderr).toBe(0)
      await writeFile(join(project, 'content/events/broken.en.md'), '---\ntitle: [unclosed\n---\n')
      const broken = await run('npx', ['almanac', 'check'], project)
      await rm(join(project, 'content/events/broken.en.md'))
      expect(broken.code).toBe(1)
      expect(broken.stdout + broken.stderr).toContain('broken.en.md')
    },
    LIMIT,
  )

  it(
    'builds the project’s static API with npx almanac build, reading the project’s config',
    async () => {
      const built = await run('npx', ['almanac', 'build'], project)
      expect(built.code, built.stderr).toBe(0)
      const list = JSON.parse(await readFile(join(project, 'dist/wp-json/calendar/events/v1/events.json'), 'utf8'))
      expect(list.events.map((event: { title: string }) => event.title)).toEqual(['Open House'])
      expect(list.events[0].timezone).toBe('Asia/Singapore')
      const index = JSON.parse(await readFile(join(project, 'dist/wp-json.json'), 'utf8'))
      expect([index.name, index.timezone_string]).toEqual(['Our Calendar', 'Asia/Singapore'])
    },
    LIMIT,
  )
})
