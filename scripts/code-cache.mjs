// Writes the code cache of the bundle (lib/almanac.cjs.cache, read by bin/bundle.js): V8's bytecode for the
// functions a real command compiles, so that a start finds them compiled. The command is a static build (English only, ~2 s) of the
// repository's demo calendar (content/) into a temporary folder, in a process of its own: it loads a tree,
// checks its records, and runs every route, serializer and feed that a server's first answers run. `serve`
// itself could not make it: it changes V8's flags once the tree is loaded (src/cli/heap.ts), and V8 takes a
// cache only under the flags it was made with. Without content/ (a copy of the package alone) no cache is made.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CACHE_SUFFIX } from '../bin/bundle.js'

const WARM = fileURLToPath(new URL('./warm-bundle.mjs', import.meta.url))

/**
 * Makes `bundle`'s cache from a build of `content`; answers why not (a line to print) when it could not, leaving
 * no cache: a bundle without one starts as it would have anyway.
 */
export function writeCodeCache(bundle, content) {
  if (!existsSync(content)) return `no ${content} to warm the bundle with, so it has no code cache`
  const tmp = mkdtempSync(join(tmpdir(), 'almanac-warm-'))
  try {
    // Settings from the environment or a config file around would change what the build runs: none are read.
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('ALMANAC_')))
    const run = spawnSync(
      process.execPath,
      [WARM, bundle, 'build', '--content', content, '--out', join(tmp, 'dist'), '--languages', 'en'],
      { cwd: tmp, env, encoding: 'utf8', timeout: 120_000 },
    )
    if (run.status === 0 && existsSync(`${bundle}${CACHE_SUFFIX}`)) return undefined
    rmSync(`${bundle}${CACHE_SUFFIX}`, { force: true })
    const lines = run.stderr.trim().split('\n')
    // An uncaught error's own line, not the stack or Node's version line after it.
    const error = lines.find((line) => /^\w*Error\b/.test(line)) ?? lines.at(-1)
    const why = run.error?.message ?? (error || `exit code ${run.status}`)
    return `the bundle's code cache could not be made (${why}): it starts without one`
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}
