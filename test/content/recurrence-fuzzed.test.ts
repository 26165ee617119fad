import { describe, expect, it } from 'vitest'
import { expand, readRecurrence } from '../../src/content/model/recurrence.ts'

// Rules ical.js 2.2 reads but then refused, or searched for ever in (holding the event loop), found by
// fuzzing 3,000 random rules in a child process with a time limit. Each must now end: refused in plain
// words, or expanded within the step budget (src/content/model/recurrence.ts), never thrown.
const FOUND_BY_FUZZING = [
  'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30',
  'FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=30',
  'FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=30',
  'FREQ=DAILY;BYMONTHDAY=31;BYMONTH=4,6,9,11',
  'FREQ=DAILY;BYMONTHDAY=-1',
  'FREQ=HOURLY;BYMONTHDAY=1,-1',
  'FREQ=MINUTELY;BYWEEKNO=-1;BYMONTH=1',
  'FREQ=MONTHLY;BYMONTHDAY=-31;BYMONTH=2',
  'FREQ=YEARLY;BYWEEKNO=1;BYMONTH=6',
  'FREQ=YEARLY;BYWEEKNO=53;BYMONTH=6',
  'FREQ=DAILY;BYWEEKNO=1',
  'FREQ=HOURLY;BYDAY=1SA',
  'FREQ=DAILY;INTERVAL=6;BYMONTHDAY=11;BYDAY=5MO',
  'FREQ=YEARLY;BYWEEKNO=20;BYDAY=1MO',
  'FREQ=MONTHLY;BYDAY=-53SU',
  'FREQ=MONTHLY;BYDAY=6SU',
  'FREQ=YEARLY;BYMONTH=3;BYDAY=-6SU',
  'FREQ=YEARLY;BYDAY=54SU',
  'FREQ=YEARLY;BYYEARDAY=200;BYMONTHDAY=1',
  'FREQ=WEEKLY;BYMONTHDAY=31',
  'FREQ=MONTHLY;BYWEEKNO=3',
  'FREQ=DAILY;BYYEARDAY=366;BYMONTH=1',
]

describe('rules ical.js could not iterate', () => {
  it.each(FOUND_BY_FUZZING)('%s ends: refused in plain words, or expanded within the budget', (rule) => {
    const { recurrence, problems } = readRecurrence({ rrule: rule })
    expect(problems.every((problem) => problem.startsWith('recurrence.rrule: '))).toBe(true)
    const expansion = expand(recurrence, '2026-01-01 09:00:00', 'UTC', '2029-01-01 00:00:00')
    // The first start is served, unless the rule made more than 1,000 and the latest were kept.
    if (!expansion.cut) expect(expansion.starts[0]).toBe('2026-01-01 09:00:00')
    expect(expansion.starts.length).toBeLessThanOrEqual(1000)
  })
})
