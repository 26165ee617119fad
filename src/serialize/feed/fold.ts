// Folding a VEVENT's lines to 75 octets (RFC 5545 section 3.1), exactly as ical-generator folds them.

/**
 * Lines past 75 octets folded as ical-generator's `foldLines` folds them (RFC 5545 section 3.1): a CRLF and a space
 * before any character that would take a line past 74 octets. That function encodes every character on its own to
 * measure it; here the octets are counted from the UTF-16 units by the same rule (test/feeds/fold.test.ts holds the
 * two equal), and an ASCII line is cut every 74 characters.
 */
export function fold(component: string): string {
  return component
    .split('\r\n')
    .map((line) => {
      // Only an ASCII line has as many octets as UTF-16 units. Another is measured as foldLines measures it, which
      // counts more octets than UTF-8 has where a lone high surrogate takes the first half of a pair after it.
      if (Buffer.byteLength(line) !== line.length) return foldWide(line)
      if (line.length <= 74) return line
      const parts = [line.slice(0, 74)]
      for (let at = 74; at < line.length; at += 74) parts.push(line.slice(at, at + 74))
      return parts.join('\r\n ')
    })
    .join('\r\n')
}

/** A line with characters past ASCII, folded by `foldLines`' measure of each character (below). */
function foldWide(line: string): string {
  const parts: string[] = []
  let from = 0
  let used = 0
  for (let i = 0; i < line.length; ) {
    const [size, units] = charSize(line, i)
    used += size
    if (used > 74) {
      parts.push(line.slice(from, i))
      from = i
      used = size
    }
    i += units
  }
  parts.push(line.slice(from))
  return parts.join('\r\n ')
}

/**
 * The octets `foldLines` counts for the character at `i`, and the UTF-16 units it takes: a high surrogate takes the
 * unit after it whatever it is, and TextEncoder writes a lone surrogate as U+FFFD (3 octets).
 */
function charSize(line: string, i: number): [number, number] {
  const code = line.charCodeAt(i)
  if (code < 0x80) return [1, 1]
  if (code < 0x800) return [2, 1]
  if (code < 0xd800 || code > 0xdbff) return [3, 1]
  if (i + 1 >= line.length) return [3, 1]
  const next = line.charCodeAt(i + 1)
  if (next >= 0xdc00 && next <= 0xdfff) return [4, 2]
  return [3 + (next < 0x80 ? 1 : next < 0x800 ? 2 : 3), 2]
}
