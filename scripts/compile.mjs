// Compiles src/ to JavaScript in lib/ (npm runs this on install, ci and pack: the `prepare` script),
// so `almanac` starts without loading TypeScript at run time. tsc emits each file as it is, with
// `.ts` imports rewritten to `.js`, so lib/ mirrors src/ file for file and the worker shims (.mjs,
// copied as they are) and `import.meta.url` paths work the same from either. Then the CLI is bundled
// into one file beside them, lib/almanac.cjs (scripts/bundle.mjs), which bin/almanac.js runs with V8's
// code cache for it (lib/almanac.cjs.cache, scripts/code-cache.mjs).
// Types are checked by `npm test`, not here. Without TypeScript (an install that omits dev
// dependencies) nothing is compiled and bin/almanac.js runs src/ through tsx, as it does whenever
// lib/ is not the compilation of src/ as it is now.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CACHE_SUFFIX } from '../bin/bundle.js'
import { STAMP_FILE, sourceHash } from '../bin/compiled.js'
import { BUNDLE_FILE, bundle } from './bundle.mjs'
import { writeCodeCache } from './code-cache.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const src = join(root, 'src')
const lib = join(root, 'lib')
/** What else decides the output: the compiler's settings. */
const SETTINGS = [
  'tsconfig.json',
  'tsconfig.build.json',
  'scripts/compile.mjs',
  'scripts/bundle.mjs',
  'scripts/code-cache.mjs',
  'scripts/warm-bundle.mjs',
  'bin/bundle.js',
  'package-lock.json',
]
const SETTINGS_FILE = '.settings-hash'

function tscPath() {
  try {
    return createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc')
  } catch {
    return null
  }
}

const read = (path) => {
  try {
    return readFileSync(path, 'utf8').trim()
  } catch {
    return null
  }
}

/**
 * A worker's .mjs entry in lib/: one that registers tsx to import its TypeScript module
 * (`await import('./name.ts')`) becomes a plain import of the compiled module; others (plain
 * JavaScript, like the watcher's) are copied as they are.
 */
function copyShim(from) {
  const to = join(next, from.slice(src.length + 1))
  const loaded = /await import\('\.\/([\w-]+)\.ts'\)/.exec(readFileSync(from, 'utf8'))?.[1]
  if (!loaded) return cpSync(from, to)
  const origin = from.slice(root.length + 1)
  writeFileSync(
    to,
    `// Written by scripts/compile.mjs for ${origin}: compiled, the worker needs no loader.\nawait import('./${loaded}.js')\n`,
  )
}

const hash = sourceHash(src)
const settings = createHash('sha256')
  .update(SETTINGS.map((file) => read(join(root, file))).join('\0'))
  .digest('hex')
const tsc = tscPath()
// Already the compilation of this source with these settings (`npm pack` after `npm ci`): left as it is,
// so a server running from lib/ meanwhile (the tests') never finds it half written.
if (read(join(lib, STAMP_FILE)) === hash && read(join(lib, SETTINGS_FILE)) === settings) {
  // But a bundle without its code cache (its warm-up failed or was stopped) is given one.
  const bundled = join(lib, BUNDLE_FILE)
  if (existsSync(bundled) && !existsSync(`${bundled}${CACHE_SUFFIX}`)) {
    const why = writeCodeCache(bundled, join(root, 'content'))
    if (why) console.log(`almanac: ${why}`)
  }
  process.exit(0)
}
if (!tsc) {
  console.log('almanac: TypeScript is not installed, so src/ is not compiled: bin/almanac.js runs it through tsx')
  process.exit(0)
}
// Compiled aside, then put in place, so lib/ is never a mixture of two compilations.
const next = `${lib}.${process.pid}`
rmSync(next, { recursive: true, force: true })
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', next], {
  cwd: root,
  stdio: 'inherit',
})
for (const entry of readdirSync(src, { recursive: true, withFileTypes: true }))
  if (entry.isFile() && entry.name.endsWith('.mjs')) copyShim(join(entry.parentPath, entry.name))
if (!existsSync(join(next, 'cli', 'index.js'))) throw new Error('tsc wrote no lib/cli/index.js')
const bundled = await bundle(next)
if (!bundled) console.log('almanac: esbuild is not installed, so lib/ is not bundled: bin/almanac.js runs it as it is')
// The hash taken before compiling: a source edited meanwhile leaves lib/ stale, never wrongly current.
writeFileSync(join(next, STAMP_FILE), `${hash}\n`)
writeFileSync(join(next, SETTINGS_FILE), `${settings}\n`)
const old = `${lib}.old.${process.pid}`
if (existsSync(lib)) renameSync(lib, old)
renameSync(next, lib)
rmSync(old, { recursive: true, force: true })
// Made in place: a code cache names the file it was made for (bin/bundle.js).
const why = bundled ? writeCodeCache(join(lib, BUNDLE_FILE), join(root, 'content')) : undefined
if (why) console.log(`almanac: ${why}`)
