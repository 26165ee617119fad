// Linear-time trimming. A regex such as /\/+$/ or /-+$/ tries every position of a long run and
// scans it to its end: quadratic on a run followed by anything else (10 s for 100,000 slashes).

/** `text` without the runs of `char` at its end. */
export function trimEndOf(text: string, char: string): string {
  let end = text.length
  while (end > 0 && text[end - 1] === char) end--
  return text.slice(0, end)
}

/** `text` without the runs of `char` at its start. */
export function trimStartOf(text: string, char: string): string {
  let start = 0
  while (start < text.length && text[start] === char) start++
  return text.slice(start)
}

/** `text` without the runs of `char` at either end. */
export function trimOf(text: string, char: string): string {
  return trimStartOf(trimEndOf(text, char), char)
}

/** The words a flag, an environment variable or a query argument says yes with: `1`, `true`, `yes`, `on`, any case. */
export function isTrueWord(value: unknown): boolean {
  return /^(1|true|yes|on)$/i.test(String(value))
}

/**
 * The Events Calendar's truthiness (`tribe_is_truthy`), which its list filters read: `1`, `true`,
 * `yes`, `on`, `y`, `enable` and `enabled`, any case, are true; a boolean is itself; anything else false.
 */
export function isTribeTrue(value: unknown): boolean {
  if (typeof value === 'boolean') return value
  return /^(1|true|yes|on|y|enabled?)$/i.test(String(value).trim())
}

/** WordPress's REST boolean (`rest_sanitize_boolean` after validation): `true`, `1`, `'true'`, `'1'`, any case. */
export function isRestTrue(value: unknown): boolean {
  return value === true || value === 1 || (typeof value === 'string' && /^(true|1)$/i.test(value))
}

/** The words that say no: `0`, `false`, `no`, `off`, any case. */
export function isFalseWord(value: unknown): boolean {
  return /^(0|false|no|off)$/i.test(String(value))
}

/**
 * `text` as UTF-8 in a buffer of its own. `Buffer.from` puts a short text (under 4 KB) in a slice
 * of a shared 8 KB slab, and a cache that keeps the slice keeps the whole slab: a cache counting
 * 3 KB would hold 8. `lead` (ASCII) goes before it.
 */
export function ownUtf8(text: string, lead = ''): Buffer {
  const bytes = Buffer.allocUnsafeSlow(lead.length + Buffer.byteLength(text))
  bytes.write(lead, 'latin1')
  bytes.write(text, lead.length)
  return bytes
}

/**
 * `bytes` itself if it owns its memory, else a copy that does (see ownUtf8). A view of all its buffer but a
 * leading byte (a memo's JSON after its comma, `ownUtf8(text, ',')`) owns it as well: it keeps one byte more.
 */
export function ownBytes(bytes: Uint8Array): Uint8Array {
  if (bytes.byteOffset <= 1 && bytes.buffer.byteLength === bytes.byteOffset + bytes.byteLength) return bytes
  const own = Buffer.allocUnsafeSlow(bytes.byteLength)
  own.set(bytes)
  return own
}
