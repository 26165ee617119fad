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
 * The first line of a cache: what it was made from. V8 checks a cache against its own version and flags and
 * the source's length alone, so a bundle changed to the same length would run a stale cache's bytecode; the
 * digest of the bundle's bytes does not outlive any change. And a cache names the file it was made for: V8 keeps
 * that name for the functions it holds, so run from another place, every stack trace would name a file that is
 * not there; such a bundle starts without it.
 */
function stampOf(bytes, file) {
  return `almanac code cache ${createHash('sha1').update(bytes).digest('hex')} ${file}\n`
}

/** The cache's V8 data when it begins with `stamp`, else undefined. */
function cacheFor(file, stamp) {
  let data
  try {
    data = readFileSync(file)
  } catch {
    return undefined
  }
  const head = Buffer.from(stamp)
  return data.subarray(0, head.length).equals(head) ? data.subarray(head.length) : undefined
}

/**
 * Runs the CommonJS bundle `bundle` as Node would `require` it, with its cache when one was made for it (and V8
 * accepts it: same V8, same flags). With `writeCache`, the process writes that cache as it exits, with whatever
 * it compiled meanwhile (a new name, then a rename: a process starting meanwhile reads the old cache or the new).
 * Answers what became of a cache: `none` (none for this bundle), `accepted` or `rejected` (by V8).
 */
export function runBundle(bundle, { writeCache = false } = {}) {
  const file = resolve(bundle)
  const bytes = readFileSync(file)
  const stamp = stampOf(bytes, file)
  const cacheFile = `${file}${CACHE_SUFFIX}`
  const cachedData = writeCache ? undefined : cacheFor(cacheFile, stamp)
  const script = new Script(Module.wrap(bytes.toString('utf8')), {
    filename: file,
    cachedData,
    // `import()` in the bundle (of what it leaves outside) goes to Node's own loader, as in a module.
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  })
  if (writeCache) process.once('exit', () => writeCacheFile(cacheFile, stamp, script.createCachedData()))
  const module = { exports: {} }
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file))
  if (cachedData === undefined) return 'none'
  return script.cachedDataRejected ? 'rejected' : 'accepted'
}

function writeCacheFile(file, stamp, data) {
  const next = `${file}.${process.pid}`
  try {
    writeFileSync(next, Buffer.concat([Buffer.from(stamp), data]))
    renameSync(next, file)
  } catch (error) {
    rmSync(next, { force: true })
    throw error
  }
}
