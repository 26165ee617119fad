// Writes the code cache of the bundle (lib/almanac.cjs.cache, read by bin/bundle.js): V8's bytecode for the
// functions a real command compiles, so that a start finds them compiled. The command is a static build (English
// only, ~2 s) of the repository's demo calendar (content/) into a temporary folder, in a process of its own: it
// loads a tree, checks its records, and runs every route, serializer and feed that a server's first answers run.
// `serve` itself could not make it: it changes V8's flags once the tree is loaded (src/cli/heap.ts), and V8 takes a
// cache only under the flags it was made with. Without content/ (a copy of the package alone) no cache is made.
// The build only reads the tree (it assigns no ids and writes nothing there), as `almanac build` in a CI does.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CACHE_SUFFIX, hasCodeCache } from '../bin/bundle.js'

const WARM = fileURLToPath(new URL('./warm-bundle.mjs', import.meta.url))

/**
 * Makes `bundle`'s cache from a build of `content`; answers why not (a line to print) when it could not, leaving
 * no cache: a bundle without one starts as it would have anyway. Never throws: an install does not fail for it.
 */
export function writeCodeCache(bundle, content) {
  if (!existsSync(content)) return `no ${content} to warm the bundle with, so it has no code cache`
  let tmp
  try {
    tmp = mkdtempSync(join(tmpdir(), 'almanac-warm-'))
    // Settings would change what the build runs: none are read, neither from ALMANAC_* variables nor from a
    // config file found upward from the temporary folder (an empty one is named). Nor are V8 flags passed on
    // (NODE_OPTIONS): V8 refuses a cache made under other flags, and a start has none.
    const config = join(tmp, 'almanac.config.yaml')
    writeFileSync(config, '')
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith('ALMANAC_') && name !== 'NODE_OPTIONS'),
    )
    const args = ['build', '--content', content, '--out', join(tmp, 'dist'), '--languages', 'en', '--config', config]
    const run = spawnSync(process.execPath, [WARM, bundle, ...args], {
      cwd: tmp,
      env,
      encoding: 'utf8',
      timeout: 120_000,
    })
    if (run.status === 0 && existsSync(`${bundle}${CACHE_SUFFIX}`)) return undefined
    // The failed warm-up wrote no cache (bin/bundle.js writes one only for a command that succeeded). One made for
    // other bytes (an earlier compilation) would only cost each start its read, and goes; one made for these very
    // bytes came from another install that warmed the same bundle meanwhile, and stays.
    if (!hasCodeCache(bundle)) rmSync(`${bundle}${CACHE_SUFFIX}`, { force: true })
    const lines = (run.stderr ?? '').trim().split('\n')
    // An uncaught error's own line, not the stack or Node's version line after it.
    const error = lines.find((line) => /^\w*Error\b/.test(line)) ?? lines.at(-1)
    return notMade(run.error?.message ?? (error || `exit code ${run.status}`))
  } catch (error) {
    return notMade(error.message)
  } finally {
    if (tmp) rmSync(tmp, { recursive: true, force: true })
  }
}

const notMade = (why) => `the bundle's code cache could not be made (${why}): it starts without one`
