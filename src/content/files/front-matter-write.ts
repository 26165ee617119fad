import { isDeepStrictEqual } from 'node:util'
import jsYaml from 'js-yaml'
import { parseFrontMatter, splitFile } from './front-matter.ts'
import { isYamlLanguage } from './front-matter-read.ts'
import { spansOf } from './front-matter-spans.ts'
import { FORBIDDEN_KEYS } from './yaml-data.ts'

/** How the store reads a file's data (numbers in text fields as written, single ids as lists). */
export type ReadAs = (data: Record<string, unknown>, written: Record<string, string>) => Record<string, unknown>

/**
 * Writes a record file deterministically: keys in `order` first, then any others as they came
 * (unknown keys are kept), one per line, a blank-free front matter block, the body, a final newline.
 * A value is written plain only when the reader gives it back unchanged, so `git diff` shows
 * exactly what changed and nothing an editor wrote is reinterpreted. Keys that name a prototype
 * (`__proto__`, `constructor`, `prototype`) are never written: the reader refuses them.
 */
export function stringifyFrontMatter(data: Record<string, unknown>, body: string, order: readonly string[]): string {
  const keys = [
    ...order.filter((key) => Object.hasOwn(data, key)),
    ...Object.keys(data).filter((key) => !order.includes(key)),
  ]
  const lines = keys
    .filter((key) => data[key] !== undefined && !FORBIDDEN_KEYS.has(key))
    .map((key) => entryLine(key, data[key]))
  const text = body.replace(/\r\n/g, '\n').trimEnd()
  return `---\n${lines.join('\n')}\n---\n${text ? `${text}\n` : ''}`
}

/** `key: value`, or a mapping in block style: `key:` then its entries indented (a series' `recurrence`, `overrides`). */
function entryLine(key: string, value: unknown, indent = ''): string {
  if (!isBlockMap(value)) return `${indent}${formatKey(key)}: ${formatValue(value)}`
  const entries = Object.entries(value).filter(([k, v]) => v !== undefined && !FORBIDDEN_KEYS.has(k))
  return [`${indent}${formatKey(key)}:`, ...entries.map(([k, v]) => entryLine(k, v, `${indent}  `))].join('\n')
}

/** A plain mapping with at least one entry: written as a block, which reads as the same mapping. */
function isBlockMap(value: unknown): value is Record<string, unknown> {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.entries(value).some(([k, v]) => v !== undefined && !FORBIDDEN_KEYS.has(k))
  )
}

function formatKey(key: string): string {
  return /^[A-Za-z_][\w-]*$/.test(key) ? key : JSON.stringify(key)
}

function formatValue(value: unknown): string {
  if (value === null) return 'null'
  if (typeof value === 'boolean') return String(value)
  if (typeof value === 'number') return formatNumber(value)
  if (typeof value === 'string') return formatString(value)
  // Anything else as a flow collection: JSON, which YAML reads exactly, but for numbers JSON cannot write (-0,
  // infinities, NaN), written as YAML reads them back.
  return flowText(withoutForbiddenKeys(value))
}

function flowText(value: unknown): string {
  if (typeof value === 'number') return formatNumber(value)
  if (Array.isArray(value)) return `[${value.map(flowText).join(', ')}]`
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .map(([key, item]) => `${JSON.stringify(key)}: ${flowText(item)}`)
      .join(', ')}}`
  return JSON.stringify(value) ?? 'null'
}

function withoutForbiddenKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutForbiddenKeys)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !FORBIDDEN_KEYS.has(key))
      .map(([key, item]) => [key, withoutForbiddenKeys(item)]),
  )
}

/** A number as YAML's core schema reads it back: -0 stays -0 (`-0.0`), infinities and NaN are `.inf` and `.nan`. */
function formatNumber(value: number): string {
  if (Object.is(value, -0)) return '-0.0'
  if (Number.isNaN(value)) return '.nan'
  if (!Number.isFinite(value)) return value > 0 ? '.inf' : '-.inf'
  return String(value)
}

function formatString(value: string): string {
  if (value !== '' && !/[\n\r\t]/.test(value) && value === value.trim() && readsBack(value)) return value
  return JSON.stringify(value)
}

/** Whether `key: <value>` reads back as the same string with the reader's own schema. */
function readsBack(value: string): boolean {
  try {
    const parsed = jsYaml.safeLoad(`v: ${value}`, { schema: jsYaml.CORE_SCHEMA }) as { v?: unknown } | null
    return parsed !== null && typeof parsed === 'object' && parsed.v === value
  } catch {
    return false
  }
}

/**
 * Updates an existing file: the lines of every value the write did not change stay byte for byte
 * as the editor wrote them (quotes, flow or block style, comments), changed values are rewritten
 * on their own lines, removed keys go, new keys are put where `order` places them. When the old
 * front matter cannot be edited line by line, or the edit would not read back as `data`, the file
 * is written afresh by stringifyFrontMatter.
 */
export function updateFrontMatter(
  previous: string,
  data: Record<string, unknown>,
  body: string,
  order: readonly string[],
  readAs: ReadAs,
): string {
  const fresh = stringifyFrontMatter(data, body, order)
  const edited = editLines(previous, data, body, order, readAs)
  if (edited === null || !readsAs(edited, fresh, readAs)) return fresh
  return edited
}

function editLines(
  previous: string,
  data: Record<string, unknown>,
  body: string,
  order: readonly string[],
  readAs: ReadAs,
): string | null {
  const parts = splitFile(previous)
  if (!parts || (parts.language !== '' && !isYamlLanguage(parts.language))) return null
  let old: Record<string, unknown>
  let oldBody: string
  try {
    const parsed = parseFrontMatter(previous)
    old = readAs(parsed.data, parsed.written)
    oldBody = parsed.body
  } catch {
    return null
  }
  const lines = parts.block.split('\n')
  const spans = spansOf(parts.block, lines)
  // The same keys, in any order: JavaScript lists a key such as `2024` before the others, whatever the file says.
  const sorted = (keys: string[]) => [...keys].sort().join('\0')
  if (!spans || sorted(spans.map((s) => s.key)) !== sorted(Object.keys(old))) return null
  const eol = lines[0] === '\r' ? '\r' : ''
  const wanted = (key: string) => data[key] !== undefined && !FORBIDDEN_KEYS.has(key)
  const rank = (key: string) => (order.includes(key) ? order.indexOf(key) : order.length)
  const added = Object.keys(data)
    .filter((key) => wanted(key) && !Object.hasOwn(old, key))
    .sort((a, b) => rank(a) - rank(b))
  const kept = spans.filter((span) => wanted(span.key))
  // Each new key goes after the last kept key ranked no later than it ('' for the top); found once per new key, as a
  // file may hold thousands of keys.
  const anchors = new Map<string, string[]>()
  for (const key of added) {
    const anchor = kept.findLast((span) => rank(span.key) <= rank(key))?.key ?? ''
    anchors.set(anchor, [...(anchors.get(anchor) ?? []), key])
  }
  const newLines = (anchor: string) =>
    (anchors.get(anchor) ?? []).flatMap((key) => entryLine(key, data[key]).split('\n')).map((line) => line + eol)
  const out: string[] = [lines[0]!]
  let next = 1
  const firstKept = kept[0]?.from ?? lines.length
  for (const span of spans) {
    while (next < span.from) out.push(lines[next++]!)
    if (span.from === firstKept) out.push(...newLines(''))
    if (wanted(span.key))
      out.push(
        ...(isDeepStrictEqual(old[span.key], data[span.key])
          ? lines.slice(span.from, span.to)
          : entryLine(span.key, data[span.key])
              .split('\n')
              .map((line) => line + eol)),
      )
    if (wanted(span.key)) out.push(...newLines(span.key))
    next = span.to
  }
  while (next < lines.length) out.push(lines[next++]!)
  if (kept.length === 0) out.splice(1, 0, ...newLines(''))
  // A body unchanged keeps its bytes (and the closing fence its own); a new one takes the file's line ends.
  const text = body.replace(/\r\n/g, '\n').trimEnd()
  const crlf = (lines: string) => (eol ? lines.replace(/\n/g, '\r\n') : lines)
  const tail =
    text === oldBody.replace(/\r\n/g, '\n').trimEnd()
      ? previous.slice(parts.blockEnd)
      : `\n---${crlf(`\n${text ? `${text}\n` : ''}`)}`
  return previous.slice(0, parts.blockStart) + out.join('\n') + tail
}

/**
 * Puts the keys of a file in `order` by moving the lines each key spans as they are (a comment
 * above a key moves with it), so quotes, styles and comments survive `check --fix`. Null when the
 * front matter cannot be moved line by line; the caller then writes it afresh.
 */
export function reorderFrontMatter(previous: string, order: readonly string[]): string | null {
  const parts = splitFile(previous)
  if (!parts || (parts.language !== '' && !isYamlLanguage(parts.language))) return null
  const lines = parts.block.split('\n')
  const spans = spansOf(parts.block, lines)
  if (!spans || spans.length === 0) return null
  const rank = (key: string) => (order.includes(key) ? order.indexOf(key) : order.length)
  const units = spans.map((span, i) => ({ key: span.key, lines: lines.slice(i === 0 ? 1 : spans[i - 1]!.to, span.to) }))
  units.sort((a, b) => rank(a.key) - rank(b.key))
  const block = [lines[0]!, ...units.flatMap((unit) => unit.lines), ...lines.slice(spans.at(-1)!.to)].join('\n')
  const text = previous.slice(0, parts.blockStart) + block + previous.slice(parts.blockEnd)
  try {
    const [a, b] = [parseFrontMatter(text), parseFrontMatter(previous)]
    return isDeepStrictEqual(a, b) ? text : null
  } catch {
    return null
  }
}

/** Whether an edited file reads back exactly as the freshly written one would. */
function readsAs(edited: string, fresh: string, readAs: ReadAs): boolean {
  try {
    const a = parseFrontMatter(edited)
    const b = parseFrontMatter(fresh)
    const left = readAs(a.data, a.written)
    const right = readAs(b.data, b.written)
    // Line ends aside: an edited CRLF file keeps its body's CRLF, which a fresh one writes as LF.
    const lf = (body: string) => body.replace(/\r\n/g, '\n')
    return lf(a.body) === lf(b.body) && isDeepStrictEqual(left, right)
  } catch {
    return false
  }
}
