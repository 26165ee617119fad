// RFC 5545 (section 3.3.11) allows no control character in a value but HTAB, and line breaks only as `\n`, which
// ical-generator writes for them: the others a content file may hold (a bell, an escape, a form feed) are dropped.

/** The text without control characters other than tab and line breaks. */
export function cleanText(text: string): string {
  return CONTROL.test(text) ? text.replace(CONTROLS, '') : text
}

// The characters dropped: C0 controls but tab, LF and CR, and DEL.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters RFC 5545 forbids
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/
// biome-ignore lint/suspicious/noControlCharactersInRegex: the same, to remove them
const CONTROLS = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g

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
