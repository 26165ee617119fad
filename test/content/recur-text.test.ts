import { describe, expect, it } from 'vitest'
import { readRule } from '../../src/content/model/recurrence-rule.ts'

// ical.js's message for a number past a part's upper bound named the lower one ("BYHOUR: invalid value "25" must
// be < 0"), and one for a part that is no number named no part. An editor reads these in `almanac check`.

const told = (rule: string) => {
  try {
    readRule(rule)
  } catch (error) {
    return (error as Error).message
  }
  return 'read'
}

describe('a rule with a number out of range or no number', () => {
  it.each([
    ['FREQ=DAILY;BYHOUR=25', 'BYHOUR must be 0 to 23, not 25'],
    ['FREQ=DAILY;BYHOUR=-1', 'BYHOUR must be 0 to 23, not -1'],
    ['FREQ=DAILY;BYMINUTE=60', 'BYMINUTE must be 0 to 59, not 60'],
    ['FREQ=YEARLY;BYMONTH=13', 'BYMONTH must be 1 to 12, not 13'],
    ['FREQ=MONTHLY;BYMONTHDAY=-40', 'BYMONTHDAY must be 1 to 31 or -31 to -1, not -40'],
    ['FREQ=YEARLY;BYWEEKNO=54', 'BYWEEKNO must be 1 to 53 or -53 to -1, not 54'],
    ['FREQ=DAILY;COUNT=abc', 'COUNT must be a whole number, not "abc"'],
    ['FREQ=DAILY;BYHOUR=9,x', 'BYHOUR must be a whole number, not "x"'],
    ['FREQ=WEEKLY;WKST=MO;BYHOUR=MO', 'BYHOUR must be a whole number, not "MO"'],
    // ical.js read these as parseInt does: 2, 5 and 0
    ['FREQ=DAILY;BYHOUR=2e1', 'BYHOUR must be a whole number, not "2e1"'],
    ['FREQ=DAILY;COUNT=5A', 'COUNT must be a whole number, not "5A"'],
    ['FREQ=DAILY;BYHOUR=0x10', 'BYHOUR must be a whole number, not "0x10"'],
  ])('%s is told in the words of its range: %s', (rule, message) => {
    expect(told(rule)).toBe(message)
  })
})
