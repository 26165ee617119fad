import { type LinedYaml, parseLined } from '../../yaml-lines.ts'
import { splitFile } from '../files/front-matter.ts'

// The line a problem's message is about, found from the message itself: a YAML error names its line;
// any other message opens with the field it is about, a top-level key (`venue: …`), a nested one as the
// schema's messages name it (`overrides."2026-02-10".status: …`, `cost (item 2): …`), and may go on
// with the key or the list item it means (`recurrence.exdate: 2026-12-29 excludes no occurrence`,
// `overrides: 2026-02-30 is not a real date`): the line is that key's or item's, as deep as the file has it.

type Path = (string | number)[]

const BARE = /^[A-Za-z_][\w-]*/
const QUOTED = /^"(?:[^"\\]|\\.)*"/
/** What a message may name after a field: a date or wall clock (the keys of overrides), quoted text, a word. */
const TOKEN = /^(?:\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?|"(?:[^"\\]|\\.)*"|[^\s:]+)/

/**
 * Finds the line (1-based) of the file `text` each message is about; 1 when nothing better is known.
 * The front matter is parsed once, the first time a message needs a nested line.
 */
export function messageLines(text: string): (message: string) => number {
  let lined: LinedYaml | null | undefined
  const parsed = () => {
    if (lined === undefined) lined = parseBlock(text)
    return lined
  }
  // The file's lines and the first line of each top-level key, found once for all its messages (a split and a
  // search per message was quadratic in a hostile file).
  let lines: string[] | undefined
  let keys: Map<string, number> | undefined
  const topLine = (_: string, key: string) => (keys ??= keyLines((lines ??= text.split('\n')))).get(key) ?? 1
  const opensBlock = (_: string, line: number) => opensBlockAt((lines ??= text.split('\n')), line)
  return (message) => {
    const yaml = /at line (\d+)/.exec(message)
    // js-yaml is handed the text from the newline after the opening fence, so its lines are the file's.
    if (yaml) return Number(yaml[1])
    if (message.startsWith('slug "')) return topLine(text, 'slug')
    if (/^id \d/.test(message)) return topLine(text, 'id')
    const field = fieldOf(message)
    if (!field) return 1
    const top = topLine(text, String(field.path[0]))
    const nested = top > 1 && (field.path.length > 1 || opensBlock(text, top))
    const doc = nested ? parsed() : null
    return (doc && nestedLine(doc, field)) ?? top
  }
}

/** The (1-based) line each top-level key is first written on: what comes before a colon, after the first line. */
function keyLines(lines: string[]): Map<string, number> {
  const keys = new Map<string, number>()
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!
    const colon = line.indexOf(':')
    if (colon < 0) continue
    const key = line.slice(0, colon)
    if (!keys.has(key)) keys.set(key, i + 1)
  }
  return keys
}

/** Whether the key on this line holds a mapping or a list (nothing after the colon, or a flow collection). */
function opensBlockAt(lines: string[], line: number): boolean {
  const written = lines[line - 1] ?? ''
  const value = written.slice(written.indexOf(':') + 1).trim()
  return value === '' || value.startsWith('[') || value.startsWith('{') || value.startsWith('#')
}

/** The field a message opens with, as a path, and the words after its colon (none without one). */
export function fieldOf(message: string): { path: Path; rest: string } | undefined {
  const first = BARE.exec(message)
  if (!first) return undefined
  const path: Path = [first[0]]
  let rest = message.slice(first[0].length)
  for (;;) {
    const item = /^ \(item (\d+)\)/.exec(rest)
    const key = rest.startsWith('.') ? (BARE.exec(rest.slice(1)) ?? QUOTED.exec(rest.slice(1))) : null
    if (item) path.push(Number(item[1]) - 1)
    else if (key) path.push(key[0].startsWith('"') ? safeJson(key[0]) : key[0])
    else break
    rest = rest.slice(item ? item[0].length : 1 + key![0].length)
  }
  return { path, rest: rest.startsWith(':') ? rest.slice(1).trimStart() : '' }
}

/** Front matter longer than this is not parsed again for lines: a problem in it is put on its top-level key. */
const MAX_LINED = 64 * 1024

/** The front matter of `text` with the lines of its keys and items (the block's lines are the file's). */
function parseBlock(text: string): LinedYaml | null {
  const parts = splitFile(text)
  if (!parts || parts.block.length > MAX_LINED) return null
  try {
    // The file was read already (js-yaml, which refuses repeated keys); this only finds lines, in linear time.
    return parseLined(parts.block, { uniqueKeys: false })
  } catch {
    return null
  }
}

/** The line of the deepest key or item of `field` (and of what its words name) the file has. */
function nestedLine(lined: LinedYaml, field: { path: Path; rest: string }): number | undefined {
  const path = [...field.path, ...namedBy(valueAt(lined.data, field.path), field.rest)]
  for (let depth = path.length; depth > 0; depth--) {
    const line = lined.lineOf(path.slice(0, depth))
    if (line !== undefined) return line
  }
  return undefined
}

/** The keys or list items (at most two deep) that the words after a field name, as the file holds them. */
function namedBy(value: unknown, words: string): Path {
  const path: Path = []
  let rest = words
  for (let depth = 0; depth < 2 && value !== null && typeof value === 'object'; depth++) {
    const token = TOKEN.exec(rest)?.[0]
    if (token === undefined) break
    const name = token.startsWith('"') ? safeJson(token) : token
    const step = Array.isArray(value)
      ? value.findIndex((item) => String(item) === name)
      : Object.hasOwn(value, name)
        ? name
        : -1
    if (step === -1) break
    path.push(step)
    value = (value as Record<string | number, unknown>)[step]
    rest = rest.slice(token.length)
    if (!rest.startsWith(': ')) break
    rest = rest.slice(2)
  }
  return path
}

function valueAt(data: unknown, path: Path): unknown {
  let value = data
  for (const step of path) value = value !== null && typeof value === 'object' ? (value as never)[step] : undefined
  return value
}

function safeJson(token: string): string {
  try {
    return String(JSON.parse(token))
  } catch {
    return token
  }
}
