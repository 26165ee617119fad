// RFC 5545 (section 3.3.11) allows no control character in a value but HTAB, and line breaks only as `\n`, which
// ical-generator writes for them: the others a content file may hold (a bell, an escape, a form feed) are dropped.

/** The text without control characters other than tab and line breaks. */
export function cleanText(text: string): string {
  let out = ''
  for (const char of text) {
    const code = char.charCodeAt(0)
    const control = (code < 0x20 && char !== '\t' && char !== '\n' && char !== '\r') || code === 0x7f
    if (!control) out += char
  }
  return out
}

/**
 * A parameter value (a CN) as RFC 6868 writes it inside quotes: `^` as `^^`, a double quote as `^'`, a line break
 * as `^n`; a parameter value has no other escape.
 */
export function parameterText(text: string): string {
  return cleanText(text)
    .replace(/\^/g, '^^')
    .replace(/"/g, "^'")
    .replace(/\r\n|\r|\n/g, '^n')
}
