// How a value from a content file is shown inside a one-line message: as JSON, shortened, with
// every character that could end or reorder a line written as an escape. Content files may be
// hostile; a message built from them must stay one line in a terminal, in GitHub annotations and in JSON.

/** Longest text shown from a value (in characters, before escaping). */
const MAX_TEXT = 40
/** Longest list or mapping shown, in characters of its JSON. */
const MAX_JSON = 60
/** Longest value shown once escaped: forty control characters would otherwise take 240. */
const MAX_SHOWN = 80

/** Controls, format characters (bidi overrides, zero-width), line and paragraph separators, lone surrogates. */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]|\p{Cs}/gu

/** `text` with every unsafe character written as a `\uXXXX` escape. */
export function escapeUnsafe(text: string): string {
  return text.replace(UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/** A value as a message shows it: `"publsh"`, `12`, `true`, `[1,"x"]`, shortened with `…` when long. */
export function showValue(value: unknown): string {
  if (typeof value === 'string') return showText(value)
  if (value === undefined) return 'nothing'
  if (typeof value !== 'object' || value === null) return escapeUnsafe(String(value))
  let json: string
  try {
    json =
      JSON.stringify(value, (_key, item: unknown) => (typeof item === 'string' ? shorten(item, MAX_TEXT) : item)) ??
      String(value)
  } catch {
    json = Array.isArray(value) ? '[…]' : '{…}'
  }
  return clip(escapeUnsafe(shorten(json, MAX_JSON)))
}

/** A field name as a message shows it: as written when it is a plain name, else quoted like a value. */
export function showKey(key: string): string {
  return /^[A-Za-z_][\w-]{0,39}$/.test(key) ? key : showText(key)
}

/** Text in double quotes, JSON-escaped, shortened to MAX_TEXT characters. */
function showText(text: string): string {
  return clip(escapeUnsafe(JSON.stringify(shorten(text, MAX_TEXT))))
}

/** Shown text cut to MAX_SHOWN characters, never in the middle of an escape. */
function clip(shown: string): string {
  if (shown.length <= MAX_SHOWN) return shown
  return `${Array.from(shown)
    .slice(0, MAX_SHOWN)
    .join('')
    .replace(/\\(u[0-9a-fA-F]{0,3})?$/, '')}…`
}

/** The first `max` characters (whole code points) and `…`, when `text` is longer. */
function shorten(text: string, max: number): string {
  if (text.length <= max) return text
  const points = Array.from(text.slice(0, max * 2)).slice(0, max)
  return `${points.join('')}…`
}

/** `a, b or c`, as a sentence lists things. */
export function orList(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`
}

/** `a, b and c`. */
export function andList(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`
}
