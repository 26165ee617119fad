import matter from 'gray-matter'
import { FrontMatterError, readYamlBlock } from './yaml-data.ts'

/**
 * gray-matter, disarmed. Its default engines evaluate a `---js`/`---javascript` block as JavaScript
 * (and would hand `---coffee` to CoffeeScript), and content files come from pull requests. So the
 * caller checks the fence first (fenceLanguage, isYamlLanguage), and gray-matter is only ever
 * called with engines of our own: YAML goes to readYamlBlock, every other name it registers or
 * aliases refuses, and the language it read is checked again after. Options are always passed, which keeps
 * gray-matter's module-level cache (keyed by file
 * content, used only when called without options, and returning the cached data objects) out of
 * the way.
 */

/** What gray-matter cut from a file: the raw block (from the fence's line end on), the body, the block's data. */
export interface ReadFile {
  data: Record<string, unknown>
  block: string
  body: string
}

type Engine = { parse: (block: string) => object }

/** gray-matter's module-level parts that its type declarations leave out. */
const grayMatter = matter as typeof matter & { engines: Record<string, unknown> }

/** Languages gray-matter knows (its engines and its aliases for them) and others commonly registered. */
const KNOWN_LANGUAGES = ['yaml', 'yml', 'json', 'javascript', 'js', 'coffee', 'coffeescript', 'cson', 'toml']

/** Whether a fence names YAML, as gray-matter's own aliases do (`yaml`, `yml`, any case). */
export function isYamlLanguage(name: string): boolean {
  return /^ya?ml$/i.test(name)
}

/** The error for front matter in any language but YAML. */
export function refuseLanguage(name: string): FrontMatterError {
  return new FrontMatterError(
    `front matter marked ${JSON.stringify(name.slice(0, 40))} is never read: only YAML front matter is read`,
    1,
  )
}

/** The language gray-matter would pick an engine for: the trimmed rest of the first line (`source` has no BOM). */
export function fenceLanguage(source: string): string {
  return matter.language(source, { delimiters: '---' }).name
}

/**
 * The engines gray-matter gets: readYamlBlock for YAML names, one that refuses for every other
 * name its defaults register (`Object.keys(matter.engines)`), its aliases and other common ones.
 */
function disarmedEngines(): Record<string, Engine> {
  const names = new Set([...KNOWN_LANGUAGES, ...Object.keys(grayMatter.engines)])
  // Copied into gray-matter's engine table with Object.assign, an own `__proto__` would set its prototype.
  names.delete('__proto__')
  return Object.fromEntries(
    [...names].map((name) => [name, isYamlLanguage(name) ? { parse: readYamlBlock } : refusing(name)]),
  )
}

/** An engine that refuses; its message says so, as the fence check should have refused first. */
function refusing(name: string): Engine {
  return {
    parse: () => {
      throw new FrontMatterError(`${refuseLanguage(name).message} (refused by its engine)`, 1)
    },
  }
}

/** Built once: building them on every call made reading twice as slow. */
const ENGINES = Object.freeze(disarmedEngines())

/**
 * gray-matter's options: our engines, and no excerpt (its default reads `excerpt_separator` from
 * the file's own data). An engine registered on gray-matter since is overridden as well.
 */
function matterOptions() {
  const added = Object.keys(grayMatter.engines).some((name) => !Object.hasOwn(ENGINES, name))
  return { language: 'yaml', delimiters: '---', engines: added ? disarmedEngines() : ENGINES, excerpt: () => '' }
}

/**
 * Reads a file (without its byte-order mark) with gray-matter and the disarmed engines. Options
 * are always passed, so gray-matter caches nothing: the data is what readYamlBlock built from
 * this text on this call (fresh objects), or a fresh `{}` for a block gray-matter finds empty.
 * gray-matter looks engines up on a plain object, so a fence naming what every object inherits
 * (`---valueOf`, `---constructor`) would reach that function (no engine of ours is registered
 * under those names: shadowing them slowed every call threefold). Such a function runs no code
 * from the file; the language gray-matter read is checked afterwards, and what it made is dropped.
 */
export function readWithGrayMatter(source: string): ReadFile {
  let file: matter.GrayMatterFile<string>
  try {
    file = matter(source, matterOptions())
  } catch (error) {
    if (error instanceof FrontMatterError) throw error
    throw new FrontMatterError(`front matter cannot be read: ${(error as Error)?.message ?? error}`, 1)
  }
  if (!isYamlLanguage(file.language)) throw refuseLanguage(file.language)
  return { data: file.data, block: file.matter, body: file.content }
}

/** Steps gray-matter may spend on blank runs in a block before the block is cut without it: about a millisecond. */
export const MAX_BLANK_STEPS = 1_000_000

/**
 * About how many steps gray-matter's test for an empty block, `/^\s*#[^\n]+/gm`, takes on `text`:
 * from each line start in a run of blanks it scans to the end of the run and back. That is
 * quadratic in a run of blank lines (16,000 newlines: 0.2 s; 100,000: seconds; 1 MB: minutes).
 */
export function blankLineSteps(text: string): number {
  let steps = 0
  for (let i = text.length - 1, run = 0; i >= 0; i--) {
    run = isBlank(text.charCodeAt(i)) ? run + 1 : 0
    if (i === 0 || isLineEnd(text.charCodeAt(i - 1))) steps += run
  }
  return steps
}

/** What `\s` matches. */
function isBlank(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d)
  if (code < 0xa0) return false
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  )
}

/** Where `^` matches in a multiline pattern: after a line terminator. */
function isLineEnd(code: number): boolean {
  return code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029
}
