import matter from 'gray-matter'
import jsYaml from 'js-yaml'

/** A content file split into its front matter and its Markdown body. */
export interface ParsedFile {
  data: Record<string, unknown>
  body: string
}

// YAML 1.1's timestamp type would turn `2026-07-14 19:00:00` into a UTC Date and lose the wall clock.
// The core schema has no timestamps, so dates stay the strings the editor wrote. js-yaml is
// gray-matter's own engine (about 5x faster than `yaml` at parsing), so loading stays quick.
const ENGINES = {
  yaml: (text: string) => jsYaml.safeLoad(text, { schema: jsYaml.CORE_SCHEMA }) as object,
}

/** Parses a Markdown file with YAML front matter; throws with the YAML reason when it is malformed. */
export function parseFrontMatter(text: string): ParsedFile {
  const { data, content } = matter(text, { engines: ENGINES })
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new Error('front matter must be a mapping of keys to values')
  }
  return { data: { ...data }, body: content.replace(/^\r?\n/, '').trimEnd() }
}

/**
 * Writes a record file deterministically: keys in `order` first, then any others as they came
 * (unknown keys are kept), one per line, a blank-free front matter block, the body, a final newline.
 * A value is written plain only when the reader gives it back unchanged, so `git diff` shows
 * exactly what changed and nothing an editor wrote is reinterpreted.
 */
export function stringifyFrontMatter(data: Record<string, unknown>, body: string, order: readonly string[]): string {
  const keys = [...order.filter((key) => key in data), ...Object.keys(data).filter((key) => !order.includes(key))]
  const lines = keys.filter((key) => data[key] !== undefined).map((key) => `${formatKey(key)}: ${formatValue(data[key])}`)
  const text = body.replace(/\r\n/g, '\n').trimEnd()
  return `---\n${lines.join('\n')}\n---\n${text ? `${text}\n` : ''}`
}

function formatKey(key: string): string {
  return /^[A-Za-z_][\w-]*$/.test(key) ? key : JSON.stringify(key)
}

function formatValue(value: unknown): string {
  if (value === null) return 'null'
  if (typeof value === 'boolean') return String(value)
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : JSON.stringify(String(value))
  if (typeof value === 'string') return formatString(value)
  if (Array.isArray(value) && value.every((item) => typeof item === 'number' && Number.isFinite(item))) return `[${value.join(', ')}]`
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return `[${value.map((item) => JSON.stringify(item)).join(', ')}]`
  // Anything else is written as JSON, which YAML reads as flow collections exactly.
  return JSON.stringify(value)
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
