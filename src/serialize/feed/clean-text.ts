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
 * What a line's worth of a feed holds at most (`feedText`): a title, a name, an address, the calendar's own name.
 * ical-generator folds the calendar's lines a character at a time, and a content file's 4 MB title took 6.8 s to
 * write as a calendar's name.
 */
export const FEED_LINE = 1_000

/**
 * A text cut to `max` characters (`…` after it when cut, never between the halves of a surrogate pair), then
 * cleaned. ical-generator escapes a value one matched character at a time, a function call each: a description of
 * 4 MB of backslashes held the event loop ~0.55 s in one VEVENT, at every request for its feed.
 */
export function feedText(text: string, max: number): string {
  if (text.length <= max) return cleanText(text)
  const end = isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max
  return `${cleanText(text.slice(0, end))}…`
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff

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
