import ICAL from 'ical.js'

// ical.js's own words for a number out of range name the wrong bound ("BYHOUR: invalid value "25" must be < 0": it
// writes the lower bound where the upper is due), and those for a part that is no number name no part. The rule's
// reader says both in the words of RFC 5545's ranges.

/** Each numeric part's values, as RFC 5545 §3.3.10 gives them. */
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

/** ical.js's reading of a rule's text; an Error saying, in plain words, what is out of range or not a number. */
export function recurOf(text: string): ICAL.Recur {
  try {
    return ICAL.Recur.fromString(text)
  } catch (error) {
    const message = (error as Error).message
    const range = /^([A-Z]+): invalid value "([^"]*)" must be [<>] -?\d+$/.exec(message)
    if (range && RANGES[range[1]!]) throw new Error(`${range[1]} must be ${RANGES[range[1]!]}, not ${range[2]}`)
    const number = /^Could not extract integer from "([^"]*)"$/.exec(message)
    if (number) throw new Error(`${partHolding(text, number[1]!)} must be a whole number, not "${number[1]}"`)
    throw error
  }
}

/** The first part of a rule whose values include `value`, for a message; "a part" when none does. */
function partHolding(text: string, value: string): string {
  for (const part of text.split(';')) {
    const [key, values = ''] = part.split('=')
    if (values.split(',').includes(value)) return key!.toUpperCase()
  }
  return 'a part'
}
