// The compiled CLI bundled into one file (lib/almanac.cjs), which bin/almanac.js runs when it is there:
// a start imports ~300 modules of lib/ and its dependencies, and resolving, reading and linking each of
// them cost about 420 ms of a 10,000-event start; one file costs about half. lib/ itself stays as tsc
// wrote it: the worker threads (watcher, Markdown, build) start from their own files there. The bundle is
// CommonJS so that V8 can take a code cache for it (bin/bundle.js), which Node 20's ES module loader cannot.
import { readFile, writeFile } from 'node:fs/promises'
import { dirname, join, relative, sep } from 'node:path'

/** The bundle's name in lib/. */
export const BUNDLE_FILE = 'almanac.cjs'

/**
 * Loaded lazily or only by workers: left to Node's own resolution. sanitize-html is loaded after the
 * start (`createRequire`), chokidar only by the watcher's thread.
 */
const EXTERNAL = ['sanitize-html', 'chokidar', 'typescript', 'tsx', 'esbuild']

/**
 * Every module of lib/ that names its own place (`import.meta.url`: a worker's file, package.json) is
 * given that place, not the bundle's: the URL of the module as it is in lib/, relative to the bundle.
 */
function ownPlaces(lib, out) {
  const inLib = new RegExp(`^${escapeRegExp(lib + sep)}.*\\.js$`)
  return {
    name: 'own-places',
    setup(build) {
      build.onLoad({ filter: inLib }, async (args) => {
        const text = await readFile(args.path, 'utf8')
        const place = `./${relative(dirname(out), args.path).split(sep).join('/')}`
        const url = `new URL(${JSON.stringify(place)}, ${BUNDLE_URL}).href`
        return { contents: text.replaceAll('import.meta.url', url), loader: 'js' }
      })
    },
  }
}

/**
 * js-yaml 3 (gray-matter's) requires esprima as it loads, for its `!!js/function` type, which only its full schema
 * reads: Almanac reads YAML with the core schema alone (src/content/files/yaml-data.ts). esprima is 0.5 MB of source
 * that cost every start ~12 ms and stayed on the heap; in the bundle the require is left out, so esprima is never
 * loaded and a `!!js/function` tag could not be read even by a schema that names it.
 * (`test/install/bundle-modules.test.ts` checks that a start loads no esprima.)
 */
function withoutEsprima() {
  const file = /[\\/]node_modules[\\/]js-yaml[\\/]lib[\\/]js-yaml[\\/]type[\\/]js[\\/]function\.js$/
  const call = "_require('esprima')"
  return {
    name: 'without-esprima',
    setup(build) {
      build.onLoad({ filter: file }, async (args) => {
        const text = await readFile(args.path, 'utf8')
        if (!text.includes(call)) {
          console.warn(`bundle: ${args.path} no longer has ${call}; esprima stays in`)
          return undefined
        }
        return { contents: text.replace(call, 'undefined'), loader: 'js' }
      })
    },
  }
}

/** The bundle's own URL, as its first line defines it (CommonJS has no `import.meta`). */
const BUNDLE_URL = 'almanacBundleUrl'

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')

/**
 * The bundle's text with every character outside ASCII written as a `\uXXXX` escape (per UTF-16 unit). V8 keeps a
 * script's source for as long as the script lives, as one byte a character when all of it is Latin-1 and two
 * otherwise: a single `–` in a comment made the 4 MB bundle a 7.7 MB string on the heap of every server. esbuild
 * already escapes strings and template literals (its ASCII charset); what it leaves is comments, carried over from
 * lib/ and the dependencies, and regular expression literals, where an escape means the same character. A character
 * escaped by a backslash of its own (`\é`, which means `é`) loses that backslash to its `\u` escape.
 */
export function asciiOnly(text) {
  return text.replace(/(\\*)([^\0-\x7f])/g, (_, slashes, unit) => {
    const kept = slashes.length % 2 === 1 ? slashes.slice(1) : slashes
    return `${kept}\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`
  })
}

/**
 * Bundles `lib/cli/index.js` (and everything it imports) into `lib/almanac.cjs`. Answers false, and writes
 * nothing, where esbuild cannot be loaded (an install without dev dependencies): lib/ runs as it is.
 */
export async function bundle(lib) {
  let esbuild
  try {
    esbuild = await import('esbuild')
  } catch {
    return false
  }
  const out = join(lib, BUNDLE_FILE)
  await esbuild.build({
    entryPoints: [join(lib, 'cli', 'index.js')],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: EXTERNAL,
    plugins: [ownPlaces(lib, out), withoutEsprima()],
    // The directive first: esbuild writes its own `"use strict"` after the banner, where it is no longer one, and the
    // bundle would run in sloppy mode (src/ and the ES module dependencies are strict).
    banner: { js: `'use strict'\nconst ${BUNDLE_URL} = require('node:url').pathToFileURL(__filename).href` },
    logLevel: 'warning',
    legalComments: 'none',
  })
  await writeFile(out, asciiOnly(await readFile(out, 'utf8')))
  return true
}
