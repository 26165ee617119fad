// Runs the bundle of lib/ (lib/almanac.cjs, scripts/bundle.mjs) with the bytecode V8 compiled for it in an
// earlier process (lib/almanac.cjs.cache, written on install by scripts/code-cache.mjs), when that cache was
// made from exactly this bundle. Compiling the bundle's functions as a start first calls them is part of every
// start; the cache holds them ready. Node 20 keeps no compile cache of its own (module.enableCompileCache came
// in Node 22) and its ES module loader takes none, so the bundle is CommonJS, run as a vm.Script, which does.
import { createHash } from 'node:crypto'
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import Module, { createRequire } from 'node:module'
import { dirname, resolve } from 'node:path'
import { constants, Script } from 'node:vm'

/** The cache of a bundle is this file beside it. */
export const CACHE_SUFFIX = '.cache'

/**
 * The first line of a cache: what it was made from and what it holds. V8 checks a cache against its own version and
 * flags and the source's length alone: a bundle changed to the same length would run a stale cache's bytecode, and
 * V8 runs damaged bytecode as it finds it (a few flipped bytes ended the process on a fatal error). So the line
 * holds the SHA-256 of the bundle's bytes and of the cache's data (~5 ms a start), and the bundle's path: V8 keeps
 * the path a cache was made at as the name of its functions' script, so run from another place, every stack trace
 * would name a file that is not there. A bundle whose cache does not match starts without it.
 */
function stampOf(bundle, data, file) {
  const digest = createHash('sha256').update(bundle).update(data).digest('hex')
  return `almanac code cache ${digest} ${data.length} ${file}\n`
}

/** Whether `bundle` has a cache made for exactly its bytes at its path, that a start would hand V8. */
export function hasCodeCache(bundle) {
  const file = resolve(bundle)
  try {
    return cacheFor(`${file}${CACHE_SUFFIX}`, readFileSync(file), file) !== undefined
  } catch {
    return false
  }
}

/** The V8 data of a cache made for exactly this bundle at this path (`stampOf`), else undefined. */
function cacheFor(cacheFile, bundle, file) {
  let cache
  try {
    cache = readFileSync(cacheFile)
  } catch {
    return undefined
  }
  const end = cache.indexOf(10) + 1
  const data = cache.subarray(end)
  return end > 0 && cache.subarray(0, end).equals(Buffer.from(stampOf(bundle, data, file))) ? data : undefined
}

/**
 * Runs the CommonJS bundle `bundle` as Node would `require` it, with its cache when one was made for it (and V8
 * accepts it: same V8, same flags). With `writeCache`, the process writes that cache as it exits with code 0, with
 * whatever it compiled meanwhile (a new name, then a rename: a process starting meanwhile reads the old cache or the new).
 * Answers what became of a cache: `none` (none for this bundle), `accepted` or `rejected` (by V8).
 */
export function runBundle(bundle, { writeCache = false } = {}) {
  const file = resolve(bundle)
  const bytes = readFileSync(file)
  const cacheFile = `${file}${CACHE_SUFFIX}`
  const cachedData = writeCache ? undefined : cacheFor(cacheFile, bytes, file)
  const script = new Script(Module.wrap(bytes.toString('utf8')), {
    filename: file,
    cachedData,
    // `import()` in the bundle (of what it leaves outside) goes to Node's own loader, as in a module.
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  })
  // Only a command that succeeded: a failed one compiled part of what a start runs (and is reported as no cache).
  if (writeCache)
    process.once('exit', (code) => {
      if (code === 0) writeCacheFile(cacheFile, bytes, file, script.createCachedData())
    })
  const module = { exports: {} }
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file))
  if (cachedData === undefined) return 'none'
  return script.cachedDataRejected ? 'rejected' : 'accepted'
}

function writeCacheFile(cacheFile, bundle, file, data) {
  const next = `${cacheFile}.${process.pid}`
  try {
    writeFileSync(next, Buffer.concat([Buffer.from(stampOf(bundle, data, file)), data]))
    renameSync(next, cacheFile)
  } catch (error) {
    rmSync(next, { force: true })
    throw error
  }
}
