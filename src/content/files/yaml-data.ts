import jsYaml from 'js-yaml'
import { plainYamlMessage } from './yaml-errors.ts'

/** Front matter that cannot be used, and the line of the file it is about (1-based). */
export class FrontMatterError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message)
  }
}

/** Keys that would reach an object's prototype if code ever assigned them: never data. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype'])

/** Deeper than any record needs; a limit keeps walking the data cheap and the stack shallow. */
const MAX_DEPTH = 32

/**
 * Reads a front-matter block as a record's fields: a block of only blank and comment lines is no
 * fields; anything else must be a YAML mapping (read by loadYaml). `block` starts at the newline
 * that ends the opening fence, so errors carry the file's line numbers.
 */
export function readYamlBlock(block: string): Record<string, unknown> {
  const empty = block.split('\n').every((line) => line.trim() === '' || line.trimStart().startsWith('#'))
  const data = empty ? {} : loadYaml(block)
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new FrontMatterError('front matter must be a mapping of keys to values', 1)
  }
  return data as Record<string, unknown>
}

/**
 * Reads a YAML front-matter block as plain data. The core schema: no timestamps (dates stay the
 * strings the editor wrote), no `!!js/…` or other code tags. The result is copied into fresh plain
 * objects and arrays, refusing keys that name a prototype, nesting deeper than MAX_DEPTH, and
 * aliases of lists or mappings (a shared node: `&a [*b, *b, …]` nine deep is a billion nodes to
 * whatever walks it, though js-yaml builds it in a millisecond). `block` starts at the newline
 * that ends the opening fence, so js-yaml's line numbers are the file's.
 */
export function loadYaml(block: string): unknown {
  let parsed: unknown
  try {
    parsed = jsYaml.safeLoad(block, { schema: jsYaml.CORE_SCHEMA })
  } catch (error) {
    throw yamlError(error, block)
  }
  return copyData(parsed, { block, seen: new Set(), key: undefined }, 0)
}

function yamlError(error: unknown, block: string): FrontMatterError {
  if (error instanceof jsYaml.YAMLException) {
    const mark = (error as { mark?: { line: number } }).mark
    return new FrontMatterError(plainYamlMessage(error, block), mark ? mark.line + 1 : 1)
  }
  if (error instanceof RangeError) return new FrontMatterError('front matter is nested too deeply', 1)
  return new FrontMatterError(String((error as Error)?.message ?? error), 1)
}

interface Walk {
  block: string
  seen: Set<object>
  /** The top-level key being copied: where a problem deep inside it is reported. */
  key: string | undefined
}

function copyData(value: unknown, walk: Walk, depth: number): unknown {
  if (value === null || typeof value !== 'object') return value
  if (depth > MAX_DEPTH) throw refuse(walk, [walk.key], `front matter is nested more than ${MAX_DEPTH} levels deep`)
  if (walk.seen.has(value))
    throw refuse(walk, [walk.key], 'front matter may not repeat a list or mapping through an alias (*name)')
  walk.seen.add(value)
  if (Array.isArray(value)) return value.map((item) => copyData(item, walk, depth + 1))
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) {
    throw refuse(walk, [walk.key], 'front matter holds a value that is not plain data')
  }
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value)) {
    if (FORBIDDEN_KEYS.has(key)) throw refuse(walk, [key, walk.key], `key "${key}" is not allowed in front matter`)
    const top = depth === 0
    if (top) walk.key = key
    out[key] = copyData((value as Record<string, unknown>)[key], walk, depth + 1)
    if (top) walk.key = undefined
  }
  return out
}

/** The error, on the line of the first of `keys` found in the block (1 when none is). */
function refuse(walk: Walk, keys: (string | undefined)[], message: string): FrontMatterError {
  const lines = keys.map((key) => (key === undefined ? undefined : lineOfKey(walk.block, key)))
  return new FrontMatterError(message, lines.find((line) => line !== undefined) ?? 1)
}

/** The file line where `key:` first starts a line (any indent, quoted or not, or after `- `). */
function lineOfKey(block: string, key: string): number | undefined {
  const lines = block.split('\n')
  const index = lines.findIndex((line) => {
    const text = line.trimStart().replace(/^-\s+/, '')
    return [key, `"${key}"`, `'${key}'`].some((form) => text.startsWith(`${form}:`) || text.startsWith(`${form} :`))
  })
  return index >= 0 ? index + 1 : undefined
}
