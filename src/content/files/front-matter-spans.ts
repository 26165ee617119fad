import { isMap, isScalar, parseDocument } from 'yaml'
import { readSimpleYaml } from './yaml-simple.ts'

/** One top-level entry of an existing front matter: its key and the block lines it spans. */
export interface Span {
  key: string
  from: number
  to: number
}

/** Plain keys that YAML types as null or a boolean: such a key is not a name the lines can be moved by. */
const TYPED_KEY = /^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE)$/

/**
 * The lines each top-level key of a front matter block spans (`lines` is the block split at `\n`): from
 * its key line to the next key, less trailing blanks and comments. Null when the block is not a
 * mapping with string keys, each starting a line.
 */
export function spansOf(block: string, lines: string[]): Span[] | null {
  return simpleSpans(block, lines) ?? parsedSpans(block, lines)
}

/**
 * The front matter nearly every file has, one `key: value` line per key (what readSimpleYaml takes):
 * each key spans its own line. Parsing the block as a YAML document to find that out cost about
 * 300 µs of an update's CPU; test/content/front-matter-spans.test.ts holds both ways to the same spans.
 */
function simpleSpans(block: string, lines: string[]): Span[] | undefined {
  if (!readSimpleYaml(block)) return undefined
  const spans: Span[] = []
  for (let line = 0; line < lines.length; line++) {
    const text = lines[line]!
    if (isFreeLine(text)) continue
    const key = text.slice(0, text.indexOf(':'))
    if (TYPED_KEY.test(key)) return undefined
    spans.push({ key, from: line, to: line + 1 })
  }
  return spans
}

/**
 * Any other block, parsed as a YAML document: its keys' places in the text give their lines. The block of
 * a CRLF file ends with its last line's CR (the LF opens the closing fence's line); yaml takes a lone CR
 * after a quoted value or a list, or on a line of its own, for content, so the LF is given back first.
 */
export function parsedSpans(block: string, lines: string[]): Span[] | null {
  const doc = parseDocument(block.endsWith('\r') ? `${block}\n` : block)
  if (doc.errors.length > 0) return null
  if (doc.contents === null) return []
  if (!isMap(doc.contents)) return null
  const starts = new Array<number>(block.length + 1)
  for (let i = 0, line = 0; i <= block.length; i++) {
    starts[i] = line
    if (block[i] === '\n') line++
  }
  const spans: Span[] = []
  for (const pair of doc.contents.items) {
    // A key YAML reads as a number or a boolean (`2024:`) is the text JavaScript gives its property.
    const key =
      isScalar(pair.key) && ['string', 'number', 'boolean'].includes(typeof pair.key.value)
        ? String(pair.key.value)
        : null
    if (key === null || !isScalar(pair.key) || !pair.key.range) return null
    const offset = pair.key.range[0]
    if (offset > 0 && block[offset - 1] !== '\n') return null
    spans.push({ key, from: starts[offset]!, to: lines.length })
  }
  for (let i = 0; i < spans.length; i++) {
    let to = i + 1 < spans.length ? spans[i + 1]!.from : lines.length
    while (to - 1 > spans[i]!.from && isFreeLine(lines[to - 1]!)) to--
    spans[i]!.to = to
  }
  return spans
}

/** A blank line, or a comment at the start of a line: it belongs to no key. */
function isFreeLine(line: string): boolean {
  return line.trim() === '' || line.startsWith('#')
}
