import jsYaml from 'js-yaml'
import { FORBIDDEN_KEYS } from './yaml-data.ts'

/**
 * A fast reader for the front matter nearly every content file has: one `key: value` per line at
 * the left margin, each value a plain scalar (`id: 12`, `cost: S$95`), a quoted string without
 * escapes, or a flow list of plain words (`tags: [3, 7]`); blank lines and `#` comments between.
 * It returns exactly what js-yaml (core schema) and copyData make of such a block, or undefined
 * for anything else (nesting, escapes, anchors, tags, multi-line values, odd characters,
 * duplicate or forbidden keys…), which the caller then reads with js-yaml as before: it never
 * errs. Plain scalars are typed by js-yaml's own resolvers (`01234` is octal there too).
 * test/content/yaml-simple.test.ts holds it to js-yaml's result on generated blocks.
 * gray-matter and js-yaml took about 30 µs of CPU a file (1.3 s for a tree of 42,000 files), this about 5.
 */
export function readSimpleYaml(block: string): SimpleYaml | undefined {
  if (SUSPECT.test(block)) return undefined
  const data: Record<string, unknown> = {}
  const written: Record<string, string> = {}
  let keys = 0
  for (let at = 0; at <= block.length; ) {
    const newline = block.indexOf('\n', at)
    const end = newline === -1 ? block.length : newline
    const line = block.slice(at, end > at && block.charCodeAt(end - 1) === 0x0d ? end - 1 : end)
    at = end + 1
    if (line.includes('\r')) return undefined
    if (line === '' || line.startsWith('#') || (line.startsWith(' ') && /^ *$/.test(line))) continue
    const entry = keyAndValue(line)
    if (!entry) return undefined
    const key = String(plainValue(entry.name))
    const value = readValue(entry.text)
    if (value === NOT_SIMPLE || FORBIDDEN_KEYS.has(key) || Object.hasOwn(data, key)) return undefined
    data[key] = value
    if (typeof value === 'number' && key === entry.name && !Object.hasOwn(written, key))
      written[key] = plainText(entry.text)
    keys++
  }
  return keys > 0 ? { data, written } : undefined
}

/** A key at the left margin (64 characters at most), `: `, more spaces, and a value starting with neither. */
function keyAndValue(line: string): { name: string; text: string } | undefined {
  const colon = line.indexOf(': ')
  if (colon < 1 || colon > 64 || !KEY.test(line.slice(0, colon))) return undefined
  let value = colon + 2
  while (line[value] === ' ') value++
  if (value === line.length || line[value] === '\t') return undefined
  return { name: line.slice(0, colon), text: line.slice(value) }
}

/** A block's fields, and the text of each top-level plain scalar read as a number (`zip: 01234` → `01234`). */
export interface SimpleYaml {
  data: Record<string, unknown>
  written: Record<string, string>
}

/**
 * Characters js-yaml may refuse or read in ways of its own: controls (not tab, CR, LF), NEL, BOM,
 * line separators; and surrogates, so that a lone one need not be told from a pair (an emoji).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
const SUSPECT = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\u2028\u2029\uD800-\uDFFF\uFEFF\uFFFE\uFFFF]/
/** A plain key (a key with no value after it may open a nested node, so it is never simple). */
const KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/
/** A word of a flow list: letters, digits and `_.+-`, not starting with `-` then a space or a flow indicator. */
const FLOW_WORD = /^[-+.]?[A-Za-z0-9_][A-Za-z0-9_.+-]*$/
/** What may follow a value on its line: spaces, then a comment after at least one. */
const AFTER_VALUE = /^(?: *| +#.*)$/
/** Characters that make a plain scalar's first character an indicator (`-` and `?` only before a blank). */
const INDICATORS = new Set([...',[]{}#&*!|>\'"%@`?:'])

const NOT_SIMPLE = Symbol('not simple')
type Value = unknown | typeof NOT_SIMPLE

function readValue(text: string): Value {
  const first = text[0]!
  if (first === '"') return quoted(text, '"')
  if (first === "'") return quoted(text, "'")
  if (first === '[') return flowList(text)
  return plainScalar(text)
}

/** A plain scalar on one line: up to a ` #` comment, trailing blanks dropped; refused when it holds `: `. */
function plainScalar(text: string): Value {
  const first = text[0]!
  if (INDICATORS.has(first) || (first === '-' && (text.length === 1 || text[1] === ' ' || text[1] === '\t')))
    return NOT_SIMPLE
  const value = plainText(text)
  if (value.includes(':') && /:(?:[ \t]|$)/.test(value)) return NOT_SIMPLE
  return plainValue(value)
}

/** A plain scalar's text: up to a `#` after a blank, without trailing blanks. */
function plainText(text: string): string {
  let end = text.length
  const hash = text.indexOf('#')
  if (hash !== -1) {
    const comment = text.search(/[ \t]#/)
    if (comment !== -1) end = comment
  }
  while (end > 0 && (text[end - 1] === ' ' || text[end - 1] === '\t')) end--
  return end === text.length ? text : text.slice(0, end)
}

/** A plain scalar's value as js-yaml types it: null, boolean, integer, float, or the string itself. */
function plainValue(text: string): unknown {
  // Every implicit type's resolver refuses text starting with any other character (see js-yaml/type/).
  if (!MAY_BE_TYPED.has(text[0]!)) return text
  for (const type of IMPLICIT) if (type.resolve(text)) return type.construct(text)
  return text
}

/** First characters of `~`, null, true, false (any case js-yaml takes), numbers, `.inf` and `.nan`. */
const MAY_BE_TYPED = new Set([...'~nNtTfF+-.0123456789'])

/** The core schema's implicit types, in js-yaml's order (null, bool, int, float). */
const IMPLICIT = (jsYaml.CORE_SCHEMA as unknown as { compiledImplicit: ImplicitType[] }).compiledImplicit
interface ImplicitType {
  resolve(text: string): boolean
  construct(text: string): unknown
}

/** A quoted string closed on its own line: double-quoted without escapes, single-quoted with `''` for `'`. */
function quoted(text: string, quote: '"' | "'"): Value {
  let value = ''
  let at = 1
  for (;;) {
    const close = text.indexOf(quote, at)
    if (close === -1) return NOT_SIMPLE
    value += text.slice(at, close)
    if (quote === "'" && text[close + 1] === "'") {
      value += "'"
      at = close + 2
      continue
    }
    if (quote === '"' && value.includes('\\')) return NOT_SIMPLE
    return AFTER_VALUE.test(text.slice(close + 1)) ? value : NOT_SIMPLE
  }
}

/**
 * A word without the spaces around it, found by a loop: `/^ +| +$/g` tries ` +$` at every space of a run inside the
 * word, quadratic in it (40,000 spaces took 2 s, and a content file may hold 512 KiB of them).
 */
function withoutSpaces(word: string): string {
  let start = 0
  let end = word.length
  while (start < end && word.charCodeAt(start) === 32) start++
  while (end > start && word.charCodeAt(end - 1) === 32) end--
  return word.slice(start, end)
}

/** `[a, b, c]` of plain words on one line, each typed as a plain scalar. */
function flowList(text: string): Value {
  const close = text.indexOf(']')
  if (close === -1 || !AFTER_VALUE.test(text.slice(close + 1))) return NOT_SIMPLE
  const inner = text.slice(1, close)
  if (/^ *$/.test(inner)) return []
  const words = inner.split(',').map(withoutSpaces)
  if (!words.every((word) => FLOW_WORD.test(word))) return NOT_SIMPLE
  return words.map(plainValue)
}
