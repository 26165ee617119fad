import { describe, expect, it } from 'vitest'
import { iterationProblems } from '../../src/content/model/rule-days.ts'

// Rules ical.js reads but would refuse when iterating, or search for ever (holding the event loop):
// each is a problem in plain words before anything iterates it. None of these may be iterated here.

describe('rules ical.js cannot iterate', () => {
  it.each([
    ['FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30', 'no day has BYMONTH, BYMONTHDAY'],
    ['FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=30', 'no day has'],
    ['FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=30', 'no day has'],
    ['FREQ=DAILY;BYMONTHDAY=31;BYMONTH=4,6,9,11', 'no day has'],
    ['FREQ=DAILY;BYMONTHDAY=-1', 'counted from the end'],
    ['FREQ=HOURLY;BYMONTHDAY=1,-1', 'counted from the end'],
    ['FREQ=MINUTELY;BYWEEKNO=-1;BYMONTH=1', 'BYWEEKNO needs FREQ=YEARLY'],
    ['FREQ=MONTHLY;BYMONTHDAY=-31;BYMONTH=2', 'no day has'],
    ['FREQ=YEARLY;BYWEEKNO=1;BYMONTH=6', 'no day has BYMONTH, BYWEEKNO'],
    ['FREQ=YEARLY;BYWEEKNO=53;BYMONTH=6', 'no day has'],
    ['FREQ=DAILY;BYWEEKNO=1', 'BYWEEKNO needs FREQ=YEARLY, not DAILY'],
    ['FREQ=HOURLY;BYDAY=1SA', 'BYDAY with a number (such as 1SA or -1FR) needs FREQ=MONTHLY or YEARLY, not HOURLY'],
    ['FREQ=DAILY;INTERVAL=6;BYMONTHDAY=11;BYDAY=5MO', 'needs FREQ=MONTHLY or YEARLY'],
    ['FREQ=YEARLY;BYWEEKNO=20;BYDAY=1MO', 'cannot go with BYWEEKNO'],
    ['FREQ=MONTHLY;BYDAY=-53SU', 'BYDAY takes numbers from -5 to 5 here (a month has no more)'],
    ['FREQ=MONTHLY;BYDAY=6SU', 'recurrence.rrule: '],
    ['FREQ=YEARLY;BYMONTH=3;BYDAY=-6SU', 'from -5 to 5'],
    ['FREQ=YEARLY;BYDAY=54SU', 'recurrence.rrule: '],
    ['FREQ=YEARLY;BYYEARDAY=200;BYMONTHDAY=1', 'recurrence.rrule: '],
    ['FREQ=WEEKLY;BYMONTHDAY=31', 'For WEEKLY recurrences neither BYMONTHDAY nor BYYEARDAY may appear'],
    ['FREQ=MONTHLY;BYWEEKNO=3', 'For MONTHLY recurrences'],
    ['FREQ=DAILY;BYYEARDAY=366;BYMONTH=1', 'Invalid BYYEARDAY rule'],
  ])('%s is a problem: %s', (rule, words) => {
    const problems = iterationProblems(rule)
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatch(/^recurrence\.rrule: /)
    expect(problems[0]).toContain(words)
  })

  it.each([
    'FREQ=WEEKLY;BYDAY=TU',
    'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO',
    'FREQ=MONTHLY;BYMONTHDAY=-1;BYMONTH=2',
    'FREQ=YEARLY;BYYEARDAY=366',
    'FREQ=YEARLY;BYYEARDAY=-366',
    'FREQ=YEARLY;BYWEEKNO=53;BYMONTH=12',
    'FREQ=YEARLY;BYWEEKNO=1;BYMONTH=12',
    'FREQ=YEARLY;BYDAY=-1FR;BYMONTH=12',
    'FREQ=YEARLY;BYDAY=53MO',
    'FREQ=MONTHLY;BYDAY=-5SU',
    'FREQ=YEARLY;BYWEEKNO=-1;BYMONTH=12',
    'FREQ=MONTHLY;BYDAY=1SA',
    'FREQ=MONTHLY;BYMONTHDAY=13;BYDAY=FR',
  ])('%s is fine', (rule) => {
    expect(iterationProblems(rule)).toEqual([])
  })
})
