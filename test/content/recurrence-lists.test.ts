import { describe, expect, it } from 'vitest'
import { clientStarts } from '../../src/content/model/recurrence-client.ts'
import { expand, readRecurrence } from '../../src/content/model/recurrence.ts'

// Rules with lists ical.js 2.2 iterates wrong, found by the rrule.js oracle (test/content/recurrence-oracle.test.ts):
// monthly rules with several numbered days or month days, where one is missing from a month (seeds 652513406,
// 653008496; src/content/model/recurrence-iterator.ts), monthly rules with an hour or minute list from a day some
// months lack (seed 711409272), and hour lists written out of order (seed 2).

const starts = (rule: string, first: string, horizon: string) => {
  const { recurrence, problems } = readRecurrence({ rrule: rule })
  expect(problems).toEqual([])
  return expand(recurrence, first, 'Europe/London', horizon)
}

describe('a monthly rule with several numbered days or month days', () => {
  it('keeps the last Thursday of the first month when it has no fifth Tuesday', () => {
    const expansion = starts('FREQ=MONTHLY;BYDAY=-1TH,5TU', '1971-12-01 00:00:00', '1972-03-31 23:59:59')
    expect(expansion.starts).toEqual([
      '1971-12-01 00:00:00',
      '1971-12-30 00:00:00',
      '1972-01-27 00:00:00',
      '1972-02-24 00:00:00',
      '1972-02-29 00:00:00',
      '1972-03-30 00:00:00',
    ])
    expect(expansion.stopped).toBeUndefined()
  })

  it('goes on past a first month with neither day, where ical.js gave up', () => {
    // Fifth Mondays and fifth Tuesdays: none in December 2027; 31 January and 29 February 2028.
    const expansion = starts('FREQ=MONTHLY;BYDAY=5MO,5TU;COUNT=4', '2027-12-01 18:00:00', '2028-12-31 23:59:59')
    expect(expansion.starts).toEqual([
      '2027-12-01 18:00:00',
      '2028-01-31 18:00:00',
      '2028-02-29 18:00:00',
      '2028-05-29 18:00:00',
    ])
    expect(expansion.stopped).toBeUndefined()
  })

  it('serves a day named twice (first and fifth-from-last Monday) once, with INTERVAL kept', () => {
    const expansion = starts('FREQ=MONTHLY;INTERVAL=2;BYDAY=1MO,-5MO,5SU', '2026-01-01 09:00:00', '2026-06-30 23:59:59')
    // January: four Mondays (5 to 26), four Sundays. March: Monday the 2nd is both the first and the fifth from
    // last, Sunday the 29th the fifth. May: Monday the 4th, Sunday the 31st.
    expect(expansion.starts).toEqual([
      '2026-01-01 09:00:00',
      '2026-01-05 09:00:00',
      '2026-03-02 09:00:00',
      '2026-03-29 09:00:00',
      '2026-05-04 09:00:00',
      '2026-05-31 09:00:00',
    ])
  })

  it('keeps INTERVAL with several month days, some of which a month lacks', () => {
    // Every other month from April: August, October and December have a 31st (and their 1st is the -31st).
    const expansion = starts('FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=31,-31', '2025-04-01 00:00:00', '2026-04-30 23:59:59')
    expect(expansion.starts).toEqual([
      '2025-04-01 00:00:00',
      '2025-08-01 00:00:00',
      '2025-08-31 00:00:00',
      '2025-10-01 00:00:00',
      '2025-10-31 00:00:00',
      '2025-12-01 00:00:00',
      '2025-12-31 00:00:00',
    ])
  })

  it('is read otherwise by a client running ical.js, so a feed cannot give it as RRULE (docs/feeds.md §4)', () => {
    // Thunderbird's ical.js, given the rule as written, misses 30 December 1971; ruleMode compares the two.
    const rule = 'FREQ=MONTHLY;BYDAY=-1TH,5TU'
    const client = clientStarts(rule, '1971-12-01 00:00:00', 'Europe/London', '1972-01-31 23:59:59')
    expect(client).toEqual(['1972-01-27 00:00:00'])
    expect(starts(rule, '1971-12-01 00:00:00', '1972-01-31 23:59:59').starts).toContain('1971-12-30 00:00:00')
  })
})

describe('a monthly rule with an hour or minute list, from a day some months lack', () => {
  it('recurs on that day only, as RFC 5545 has it: not on the 1st of the month after a short one', () => {
    // Seed 711409272: ical.js gave 1 February at 00:59, and from the 31st, the 1st of each month after one without it.
    expect(starts('FREQ=MONTHLY;BYHOUR=9,17', '2026-01-31 09:00:00', '2026-06-30 23:59:59').starts).toEqual([
      '2026-01-31 09:00:00',
      '2026-01-31 17:00:00',
      '2026-03-31 09:00:00',
      '2026-03-31 17:00:00',
      '2026-05-31 09:00:00',
      '2026-05-31 17:00:00',
    ])
    expect(starts('FREQ=MONTHLY;BYMINUTE=0,59', '2026-01-29 00:00:00', '2026-03-31 23:59:59').starts).toEqual([
      '2026-01-29 00:00:00',
      '2026-01-29 00:59:00',
      '2026-03-29 00:00:00',
      '2026-03-29 00:59:00',
    ])
  })
})

describe('an hour, minute or month list written out of order', () => {
  it('is counted in the order of time, as its set reads', () => {
    // ical.js 2.2 stepped through BYHOUR=23,13 as written, so COUNT counted 23:00 of the next day before 13:00.
    const expansion = starts('FREQ=DAILY;BYHOUR=23,13;COUNT=3', '2026-03-02 13:00:00', '2026-03-31 23:59:59')
    expect(expansion.starts).toEqual(['2026-03-02 13:00:00', '2026-03-02 23:00:00', '2026-03-03 13:00:00'])
  })
})

describe('a rule that names a part twice', () => {
  it('is refused, since ical.js would iterate the last and the checks read the first', () => {
    for (const rule of [
      'FREQ=MONTHLY;BYDAY=1MO;BYDAY=5TU,-1TH',
      'FREQ=DAILY;COUNT=2;count=3',
      'FREQ=DAILY;FREQ=WEEKLY',
    ]) {
      const { problems } = readRecurrence({ rrule: rule })
      expect(problems.join(' ')).toMatch(/names (BYDAY|COUNT|FREQ) twice/)
    }
  })
})
