import {
  blankLineSteps,
  fenceLanguage,
  isYamlLanguage,
  MAX_BLANK_STEPS,
  type ReadFile,
  readWithGrayMatter,
  refuseLanguage,
} from './front-matter-read.ts'
import { FrontMatterError, loadYaml, readYamlBlock } from './yaml-data.ts'
import { readSimpleYaml } from './yaml-simple.ts'

/** A content file split into its front matter and its Markdown body. */
export interface ParsedFile {
  data: Record<string, unknown>
  body: string
  /** The text of each top-level plain scalar that YAML read as a number (`zip: 01234` → `01234`). */
  written: Record<string, string>
}

/** The parts of a file: the fence's language, the raw YAML block (from the fence's newline on), the body. */
export interface FileParts {
  language: string
  block: string
  body: string
  /** Where the block starts and ends in the text: before it the fence, after it the closing fence and body. */
  blockStart: number
  blockEnd: number
}

/**
 * Splits a file as front-matter tools do: a first line `---` (optionally `---yaml`), the block up
 * to the next line that starts with `---`, then the body. A file that does not start with `---`
 * has no front matter. A block that is never closed runs to the end of the file.
 */
export function splitFile(text: string): FileParts | null {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0
  if (!text.startsWith('---', bom) || text[bom + 3] === '-') return null
  const newline = text.slice(bom).search(/\r?\n/)
  const blockStart = newline === -1 ? text.length : bom + newline
  let blockEnd = text.indexOf('\n---', blockStart)
  if (blockEnd === -1) blockEnd = text.length
  let body = text.slice(blockEnd + 4)
  if (body.startsWith('\r')) body = body.slice(1)
  if (body.startsWith('\n')) body = body.slice(1)
  return {
    language: text.slice(bom + 3, blockStart).trim(),
    block: text.slice(blockStart, blockEnd),
    body,
    blockStart,
    blockEnd,
  }
}

/**
 * The longest front matter read, in characters. A record's fields take a few hundred; a series with an override
 * for each of its 1,000 occurrences (the most served) some 200 KB. A content file may be 4 MiB, and one of
 * hundreds of thousands of keys (or that needs the full YAML reader) held the event loop up to 2.2 s to load and
 * slowed every answer showing it (each read copies its fields).
 */
export const MAX_FRONT_MATTER = 512 * 1024

/** Whether a file's front matter is closed: a file someone is still writing may not be yet. */
export function isComplete(text: string): boolean {
  const parts = splitFile(text)
  return parts !== null && parts.blockEnd < text.length
}

/**
 * Parses a Markdown file with YAML front matter, with gray-matter. Only YAML is ever read: the
 * fence is checked before gray-matter is called, and a fence naming any other language (`---js`,
 * `---json`, `---coffee`…) is refused, never handed to an engine (gray-matter's own engines are
 * replaced too: see front-matter-read.ts). Throws a FrontMatterError, with the line it is about,
 * when the front matter cannot be used.
 */
export function parseFrontMatter(text: string): ParsedFile {
  const read = readFile(text)
  const written = read.written ?? numbersAsWritten(read.block, read.data)
  return { data: read.data, body: tidyBody(read.body), written }
}

/** Reads a file's parts and data: the fence is checked before gray-matter is called. */
function readFile(text: string): ReadFile & { written?: Record<string, string> } {
  const parts = splitFile(text)
  if (!parts) return { data: {}, block: '', body: text.replace(/^\uFEFF/, '') }
  if (parts.block.length > MAX_FRONT_MATTER)
    throw new FrontMatterError(
      `front matter of more than ${MAX_FRONT_MATTER / 1024} KiB is not read (this file's is ${Math.ceil(parts.block.length / 1024)} KiB)`,
      1,
    )
  const simple = readSimply(text, parts)
  if (simple) return simple
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text // splitFile allows one byte-order mark
  const language = parts.blockStart === text.length ? parts.language : fenceLanguage(source)
  if (language !== '' && !isYamlLanguage(language)) throw refuseLanguage(language)
  return isCutAsWritten(text, parts) ? readWithGrayMatter(source) : readWithSplit(parts)
}

/**
 * The common case, read without gray-matter or js-yaml: a bare `---` fence (no language) over a
 * block readSimpleYaml reads. Both ways below cut such a file into splitFile's parts with the same
 * data (test/content/gray-matter.test.ts), and readSimpleYaml's data is js-yaml's
 * (test/content/yaml-simple.test.ts), so this is what they give, at a tenth of the cost.
 */
function readSimply(text: string, parts: FileParts): (ReadFile & { written: Record<string, string> }) | undefined {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0
  if (parts.blockStart !== bom + 3) return undefined
  const read = readSimpleYaml(parts.block)
  return read && { data: read.data, written: read.written, block: parts.block, body: parts.body }
}

/**
 * Whether gray-matter cuts the file as it is written (as splitFile does), in linear time; a test
 * holds the two to the same parts and data. Where it would not, splitFile cuts it:
 * - a file that is only its opening fence: with no line break, gray-matter reads the fence's
 *   language without its last letter (`---yml` as `ym`);
 * - a bare `---` followed by blanks that YAML does not take as blanks (`\v`, `\f`, a lone `\r`,
 *   no-break spaces…): gray-matter hands them to the engine as the block's first line;
 * - a block whose runs of blank lines would cost gray-matter's test for an empty block more than
 *   MAX_BLANK_STEPS (it is quadratic in them).
 */
export function isCutAsWritten(text: string, parts: FileParts): boolean {
  if (parts.blockStart === text.length) return false
  const fenceTail = text.slice(text.indexOf('---') + 3, parts.blockStart)
  if (parts.language === '' && !/^[ \t]*$/.test(fenceTail)) return false
  return blankLineSteps(parts.block) <= MAX_BLANK_STEPS
}

/** The parts splitFile cut, and the block's data: what readWithGrayMatter gives for the same file. */
export function readWithSplit(parts: FileParts): ReadFile {
  return { data: readYamlBlock(parts.block), block: parts.block, body: parts.body }
}

// No /\s+$/ on text from files or requests: a backtracking pattern is quadratic in a run of blanks.
function tidyBody(body: string): string {
  return body.replace(/^\r?\n/, '').trimEnd()
}

/**
 * What the editor wrote for each top-level value YAML turned into a number. A line is taken for a key only when its
 * text, read alone, is the very number YAML read for the key: a line inside a quoted value is no key of its own.
 */
function numbersAsWritten(block: string, data: Record<string, unknown>): Record<string, string> {
  const written: Record<string, string> = {}
  for (const line of block.split('\n')) {
    const m = /^([A-Za-z_][\w-]*)[ \t]*:[ \t]+(.*)$/.exec(line.endsWith('\r') ? line.slice(0, -1) : line)
    const key = m?.[1] ?? ''
    if (typeof data[key] !== 'number' || Object.hasOwn(written, key)) continue
    const rest = m![2]!
    const comment = rest.search(/[ \t]#/)
    const value = (comment === -1 ? rest : rest.slice(0, comment)).trim()
    if (value === '' || '\'"[{!&*|>#'.includes(value[0]!)) continue
    try {
      if (Object.is(loadYaml(value), data[key])) written[key] = value
    } catch {}
  }
  return written
}
