import ICAL from 'ical.js'

// ical.js's own words for a number out of range name the wrong bound ("BYHOUR: invalid value "25" must be < 0": it
// writes the lower bound where the upper is due), and those for a part that is no number name no part. The rule's
// reader says both in the words of RFC 5545's ranges.

/** Each numeric part's values, as RFC 5545, section 3.3.10 gives them. */
const RANGES: Record<string, string> = {
  BYSECOND: '0 to 60',
  BYMINUTE: '0 to 59',
  BYHOUR: '0 to 23',
  BYMONTHDAY: '1 to 31 or -31 to -1',
  BYYEARDAY: '1 to 366 or -366 to -1',
  BYWEEKNO: '1 to 53 or -53 to -1',
  BYMONTH: '1 to 12',
  BYSETPOS: '1 to 366 or -366 to -1',
}

/** The parts whose values are whole numbers. */
const NUMERIC = new Set(['COUNT', 'INTERVAL', ...Object.keys(RANGES)])

/** ical.js's reading of a rule's text; an Error saying, in plain words, what is out of range or not a number. */
export function recurOf(text: string): ICAL.Recur {
  // ical.js reads a number as parseInt does: `BYHOUR=2e1` was 2, `COUNT=5A` was 5, and a bad value's message named
  // no part. Every numeric value is a whole number, written as one, before ical.js reads it.
  for (const part of text.split(';')) {
    const [key = '', values = ''] = part.split('=')
    if (!NUMERIC.has(key.toUpperCase())) continue
    const bad = values.split(',').find((value) => !/^[+-]?\d+$/.test(value))
    if (bad !== undefined) throw new Error(`${key.toUpperCase()} must be a whole number, not "${bad}"`)
  }
  try {
    return ICAL.Recur.fromString(text)
  } catch (error) {
    const message = (error as Error).message
    const range = /^([A-Z]+): invalid value "([^"]*)" must be [<>] -?\d+$/.exec(message)
    if (range && RANGES[range[1]!]) throw new Error(`${range[1]} must be ${RANGES[range[1]!]}, not ${range[2]}`)
    throw error
  }
}
