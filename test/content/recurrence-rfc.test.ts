import { describe, expect, it } from 'vitest'
import { expand, readRecurrence } from '../../src/content/model/recurrence.ts'
import { instantToWall, wallToInstant } from '../../src/time/zone.ts'

// RFC 5545 section 3.8.5.3, "Examples": every RRULE the standard lists, with the dates it lists for it.
// All of them have DTSTART;TZID=America/New_York, and the RFC labels each group of dates EDT or EST:
// the wall clock must stay 09:00 across the 1997 and 1998 changes, and the instant must carry the
// offset of the RFC's label. Open-ended rules are cut by a horizon at the end of the last day the
// RFC shows, so the whole expansion is compared, not a prefix.

const NY = 'America/New_York'
type Zoned = { wall: string; offset: number }

/** The RFC's "(1997 9:00 AM EDT) September 2,4,6": days of one month, at one time, with the label's offset. */
function on(label: 'EDT' | 'EST', month: string, days: number[], time = '09:00'): Zoned[] {
  const offset = label === 'EDT' ? -4 : -5
  return days.map((day) => ({ wall: `${month}-${String(day).padStart(2, '0')} ${time}:00`, offset }))
}
const span = (from: number, to: number, step = 1) =>
  Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, i) => from + i * step)
/** One day's times, every `minutes` from `from` to `to` (HH:MM). */
function times(label: 'EDT' | 'EST', day: string, from: string, to: string, minutes: number): Zoned[] {
  const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3))
  return span(toMinutes(from), toMinutes(to), minutes).flatMap((m) => {
    const hhmm = `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`
    return on(label, day.slice(0, 7), [Number(day.slice(8))], hhmm)
  })
}

interface Row {
  title: string
  start: string
  rules: string[]
  expected: Zoned[]
  exdate?: string[]
  /** For open-ended rules: the end of the last day the RFC shows. */
  horizon?: string
}

const rows: Row[] = [
  {
    title: 'Daily for 10 occurrences',
    start: '1997-09-02 09:00:00',
    rules: ['FREQ=DAILY;COUNT=10'],
    expected: on('EDT', '1997-09', span(2, 11)),
  },
  {
    title: 'Daily until December 24, 1997',
    start: '1997-09-02 09:00:00',
    rules: ['FREQ=DAILY;UNTIL=19971224T000000Z'],
    expected: [
      ...on('EDT', '1997-09', span(2, 30)),
      ...on('EDT', '1997-10', span(1, 25)),
      ...on('EST', '1997-10', span(26, 31)),
      ...on('EST', '1997-11', span(1, 30)),
      ...on('EST', '1997-12', span(1, 23)),
    ],
  },
  {
    title: 'Every other day - forever',
    start: '1997-09-02 09:00:00',
    rules: ['FREQ=DAILY;INTERVAL=2'],
    expected: [
      ...on('EDT', '1997-09', span(2, 30, 2)),
      ...on('EDT', '1997-10', span(2, 24, 2)),
      ...on('EST', '1997-10', [26, 28, 30]),
      ...on('EST', '1997-11', span(1, 29, 2)),
      ...on('EST', '1997-12', [1, 3]),
    ],
    horizon: '1997-12-03 23:59:59',
  },
  {
    title: 'Every 10 days, 5 occurrences',
    start: '1997-09-02 09:00:00',
    rules: ['FREQ=DAILY;INTERVAL=10;COUNT=5'],
    expected: [...on('EDT', '1997-09', [2, 12, 22]), ...on('EDT', '1997-10', [2, 12])],
  },
  {
    title: 'Every day in January, for 3 years',
    start: '1998-01-01 09:00:00',
    rules: [
      'FREQ=YEARLY;UNTIL=20000131T140000Z;BYMONTH=1;BYDAY=SU,MO,TU,WE,TH,FR,SA',
      'FREQ=DAILY;UNTIL=20000131T140000Z;BYMONTH=1',
    ],
    expected: ['1998-01', '1999-01', '2000-01'].flatMap((month) => on('EST', month, span(1, 31))),
  },
  {
    title: 'Weekly for 10 occurrences',
    start: '1997-09-02 09:00:00',
    rules: ['FREQ=WEEKLY;COUNT=10'],
    expected: [
      ...on('EDT', '1997-09', [2, 9, 16, 23, 30]),
      ...on('EDT', '1997-10', [7, 14, 21]),
      ...on('EST', '1997-10', [28]),
      ...on('EST', '1997-11', [4]),
    ],
  },
  {
    title: 'Weekly until December 24, 1997',
    start: '1997-09-02 09:00:00',
    rules: ['FREQ=WEEKLY;UNTIL=19971224T000000Z'],
    expected: [
      ...on('EDT', '1997-09', [2, 9, 16, 23, 30]),
      ...on('EDT', '1997-10', [7, 14, 21]),
      ...on('EST', '1997-10', [28]),
      ...on('EST', '1997-11', [4, 11, 18, 25]),
      ...on('EST', '1997-12', [2, 9, 16, 23]),
    ],
  },
  {
    title: 'Every other week - forever',
    start: '1997-09-02 09:00:00',
    rules: ['FREQ=WEEKLY;INTERVAL=2;WKST=SU'],
    expected: [
      ...on('EDT', '1997-09', [2, 16, 30]),
      ...on('EDT', '1997-10', [14]),
      ...on('EST', '1997-10', [28]),
      ...on('EST', '1997-11', [11, 25]),
      ...on('EST', '1997-12', [9, 23]),
      ...on('EST', '1998-01', [6, 20]),
      ...on('EST', '1998-02', [3, 17]),
    ],
    horizon: '1998-02-17 23:59:59',
  },
  {
    title: 'Weekly on Tuesday and Thursday for five weeks',
    start: '1997-09-02 09:00:00',
    rules: ['FREQ=WEEKLY;UNTIL=19971007T000000Z;WKST=SU;BYDAY=TU,TH', 'FREQ=WEEKLY;COUNT=10;WKST=SU;BYDAY=TU,TH'],
    expected: [...on('EDT', '1997-09', [2, 4, 9, 11, 16, 18, 23, 25, 30]), ...on('EDT', '1997-10', [2])],
  },
  {
    title: 'Every other week on Monday, Wednesday, and Friday until December 24, 1997, from Monday, September 1',
    start: '1997-09-01 09:00:00',
    rules: ['FREQ=WEEKLY;INTERVAL=2;UNTIL=19971224T000000Z;WKST=SU;BYDAY=MO,WE,FR'],
    expected: [
      ...on('EDT', '1997-09', [1, 3, 5, 15, 17, 19, 29]),
      ...on('EDT', '1997-10', [1, 3, 13, 15, 17]),
      ...on('EST', '1997-10', [27, 29, 31]),
      ...on('EST', '1997-11', [10, 12, 14, 24, 26, 28]),
      ...on('EST', '1997-12', [8, 10, 12, 22]),
    ],
  },
  {
    title: 'Every other week on Tuesday and Thursday, for 8 occurrences',
    start: '1997-09-02 09:00:00',
    rules: ['FREQ=WEEKLY;INTERVAL=2;COUNT=8;WKST=SU;BYDAY=TU,TH'],
    expected: [...on('EDT', '1997-09', [2, 4, 16, 18, 30]), ...on('EDT', '1997-10', [2, 14, 16])],
  },
  {
    title: 'Monthly on the first Friday for 10 occurrences',
    start: '1997-09-05 09:00:00',
    rules: ['FREQ=MONTHLY;COUNT=10;BYDAY=1FR'],
    expected: [
      ...on('EDT', '1997-09', [5]),
      ...on('EDT', '1997-10', [3]),
      ...on('EST', '1997-11', [7]),
      ...on('EST', '1997-12', [5]),
      ...on('EST', '1998-01', [2]),
      ...on('EST', '1998-02', [6]),
      ...on('EST', '1998-03', [6]),
      ...on('EST', '1998-04', [3]),
      ...on('EDT', '1998-05', [1]),
      ...on('EDT', '1998-06', [5]),
    ],
  },
  {
    title: 'Monthly on the first Friday until December 24, 1997',
    start: '1997-09-05 09:00:00',
    rules: ['FREQ=MONTHLY;UNTIL=19971224T000000Z;BYDAY=1FR'],
    expected: [
      ...on('EDT', '1997-09', [5]),
      ...on('EDT', '1997-10', [3]),
      ...on('EST', '1997-11', [7]),
      ...on('EST', '1997-12', [5]),
    ],
  },
  {
    title: 'Every other month on the first and last Sunday of the month for 10 occurrences',
    start: '1997-09-07 09:00:00',
    rules: ['FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU'],
    expected: [
      ...on('EDT', '1997-09', [7, 28]),
      ...on('EST', '1997-11', [2, 30]),
      ...on('EST', '1998-01', [4, 25]),
      ...on('EST', '1998-03', [1, 29]),
      ...on('EDT', '1998-05', [3, 31]),
    ],
  },
  {
    title: 'Monthly on the second-to-last Monday of the month for 6 months',
    start: '1997-09-22 09:00:00',
    rules: ['FREQ=MONTHLY;COUNT=6;BYDAY=-2MO'],
    expected: [
      ...on('EDT', '1997-09', [22]),
      ...on('EDT', '1997-10', [20]),
      ...on('EST', '1997-11', [17]),
      ...on('EST', '1997-12', [22]),
      ...on('EST', '1998-01', [19]),
      ...on('EST', '1998-02', [16]),
    ],
  },
  {
    title: 'Monthly on the third-to-the-last day of the month, forever',
    start: '1997-09-28 09:00:00',
    rules: ['FREQ=MONTHLY;BYMONTHDAY=-3'],
    expected: [
      ...on('EDT', '1997-09', [28]),
      ...on('EST', '1997-10', [29]),
      ...on('EST', '1997-11', [28]),
      ...on('EST', '1997-12', [29]),
      ...on('EST', '1998-01', [29]),
      ...on('EST', '1998-02', [26]),
    ],
    horizon: '1998-02-26 23:59:59',
  },
  {
    title: 'Monthly on the 2nd and 15th of the month for 10 occurrences',
    start: '1997-09-02 09:00:00',
    rules: ['FREQ=MONTHLY;COUNT=10;BYMONTHDAY=2,15'],
    expected: [
      ...on('EDT', '1997-09', [2, 15]),
      ...on('EDT', '1997-10', [2, 15]),
      ...on('EST', '1997-11', [2, 15]),
      ...on('EST', '1997-12', [2, 15]),
      ...on('EST', '1998-01', [2, 15]),
    ],
  },
  {
    title: 'Monthly on the first and last day of the month for 10 occurrences',
    start: '1997-09-30 09:00:00',
    rules: ['FREQ=MONTHLY;COUNT=10;BYMONTHDAY=1,-1'],
    expected: [
      ...on('EDT', '1997-09', [30]),
      ...on('EDT', '1997-10', [1]),
      ...on('EST', '1997-10', [31]),
      ...on('EST', '1997-11', [1, 30]),
      ...on('EST', '1997-12', [1, 31]),
      ...on('EST', '1998-01', [1, 31]),
      ...on('EST', '1998-02', [1]),
    ],
  },
  {
    title: 'Every 18 months on the 10th thru 15th of the month for 10 occurrences',
    start: '1997-09-10 09:00:00',
    rules: ['FREQ=MONTHLY;INTERVAL=18;COUNT=10;BYMONTHDAY=10,11,12,13,14,15'],
    expected: [...on('EDT', '1997-09', span(10, 15)), ...on('EST', '1999-03', span(10, 13))],
  },
  {
    title: 'Every Tuesday, every other month',
    start: '1997-09-02 09:00:00',
    rules: ['FREQ=MONTHLY;INTERVAL=2;BYDAY=TU'],
    expected: [
      ...on('EDT', '1997-09', [2, 9, 16, 23, 30]),
      ...on('EST', '1997-11', [4, 11, 18, 25]),
      ...on('EST', '1998-01', [6, 13, 20, 27]),
      ...on('EST', '1998-03', [3, 10, 17, 24, 31]),
    ],
    horizon: '1998-03-31 23:59:59',
  },
  {
    title: 'Yearly in June and July for 10 occurrences',
    start: '1997-06-10 09:00:00',
    rules: ['FREQ=YEARLY;COUNT=10;BYMONTH=6,7'],
    expected: [1997, 1998, 1999, 2000, 2001].flatMap((y) => [
      ...on('EDT', `${y}-06`, [10]),
      ...on('EDT', `${y}-07`, [10]),
    ]),
  },
  {
    title: 'Every other year on January, February, and March for 10 occurrences',
    start: '1997-03-10 09:00:00',
    rules: ['FREQ=YEARLY;INTERVAL=2;COUNT=10;BYMONTH=1,2,3'],
    expected: [
      ...on('EST', '1997-03', [10]),
      ...[1999, 2001, 2003].flatMap((y) => ['01', '02', '03'].flatMap((m) => on('EST', `${y}-${m}`, [10]))),
    ],
  },
  {
    title: 'Every third year on the 1st, 100th, and 200th day for 10 occurrences',
    start: '1997-01-01 09:00:00',
    rules: ['FREQ=YEARLY;INTERVAL=3;COUNT=10;BYYEARDAY=1,100,200'],
    expected: [
      ...on('EST', '1997-01', [1]),
      ...on('EDT', '1997-04', [10]),
      ...on('EDT', '1997-07', [19]),
      ...on('EST', '2000-01', [1]),
      ...on('EDT', '2000-04', [9]),
      ...on('EDT', '2000-07', [18]),
      ...on('EST', '2003-01', [1]),
      ...on('EDT', '2003-04', [10]),
      ...on('EDT', '2003-07', [19]),
      ...on('EST', '2006-01', [1]),
    ],
  },
  {
    title: 'Every 20th Monday of the year, forever',
    start: '1997-05-19 09:00:00',
    rules: ['FREQ=YEARLY;BYDAY=20MO'],
    expected: [...on('EDT', '1997-05', [19]), ...on('EDT', '1998-05', [18]), ...on('EDT', '1999-05', [17])],
    horizon: '1999-05-17 23:59:59',
  },
  {
    title: 'Monday of week number 20 (where the default start of the week is Monday), forever',
    start: '1997-05-12 09:00:00',
    rules: ['FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO'],
    expected: [...on('EDT', '1997-05', [12]), ...on('EDT', '1998-05', [11]), ...on('EDT', '1999-05', [17])],
    horizon: '1999-05-17 23:59:59',
  },
  {
    title: 'Every Thursday in March, forever',
    start: '1997-03-13 09:00:00',
    rules: ['FREQ=YEARLY;BYMONTH=3;BYDAY=TH'],
    expected: [
      ...on('EST', '1997-03', [13, 20, 27]),
      ...on('EST', '1998-03', [5, 12, 19, 26]),
      ...on('EST', '1999-03', [4, 11, 18, 25]),
    ],
    horizon: '1999-03-25 23:59:59',
  },
  {
    title: 'Every Thursday, but only during June, July, and August, forever',
    start: '1997-06-05 09:00:00',
    rules: ['FREQ=YEARLY;BYDAY=TH;BYMONTH=6,7,8'],
    expected: [
      ...on('EDT', '1997-06', [5, 12, 19, 26]),
      ...on('EDT', '1997-07', [3, 10, 17, 24, 31]),
      ...on('EDT', '1997-08', [7, 14, 21, 28]),
      ...on('EDT', '1998-06', [4, 11, 18, 25]),
      ...on('EDT', '1998-07', [2, 9, 16, 23, 30]),
      ...on('EDT', '1998-08', [6, 13, 20, 27]),
      ...on('EDT', '1999-06', [3, 10, 17, 24]),
      ...on('EDT', '1999-07', [1, 8, 15, 22, 29]),
      ...on('EDT', '1999-08', [5, 12, 19, 26]),
    ],
    horizon: '1999-08-26 23:59:59',
  },
  {
    title: 'Every Friday the 13th, forever (DTSTART excluded by EXDATE, as the RFC writes it)',
    start: '1997-09-02 09:00:00',
    exdate: ['1997-09-02 09:00:00'],
    rules: ['FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13'],
    expected: [
      ...on('EST', '1998-02', [13]),
      ...on('EST', '1998-03', [13]),
      ...on('EST', '1998-11', [13]),
      ...on('EDT', '1999-08', [13]),
      ...on('EDT', '2000-10', [13]),
    ],
    horizon: '2000-10-13 23:59:59',
  },
  {
    title: 'The first Saturday that follows the first Sunday of the month, forever',
    start: '1997-09-13 09:00:00',
    rules: ['FREQ=MONTHLY;BYDAY=SA;BYMONTHDAY=7,8,9,10,11,12,13'],
    expected: [
      ...on('EDT', '1997-09', [13]),
      ...on('EDT', '1997-10', [11]),
      ...on('EST', '1997-11', [8]),
      ...on('EST', '1997-12', [13]),
      ...on('EST', '1998-01', [10]),
      ...on('EST', '1998-02', [7]),
      ...on('EST', '1998-03', [7]),
      ...on('EDT', '1998-04', [11]),
      ...on('EDT', '1998-05', [9]),
      ...on('EDT', '1998-06', [13]),
    ],
    horizon: '1998-06-13 23:59:59',
  },
  {
    title: 'Every 4 years, the first Tuesday after a Monday in November, forever (U.S. Presidential Election day)',
    start: '1996-11-05 09:00:00',
    rules: ['FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8'],
    expected: [...on('EST', '1996-11', [5]), ...on('EST', '2000-11', [7]), ...on('EST', '2004-11', [2])],
    horizon: '2004-11-02 23:59:59',
  },
  {
    title: 'The third instance into the month of one of Tuesday, Wednesday, or Thursday, for the next 3 months',
    start: '1997-09-04 09:00:00',
    rules: ['FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3'],
    expected: [...on('EDT', '1997-09', [4]), ...on('EDT', '1997-10', [7]), ...on('EST', '1997-11', [6])],
  },
  {
    title: 'The second-to-last weekday of the month',
    start: '1997-09-29 09:00:00',
    rules: ['FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2'],
    expected: [
      ...on('EDT', '1997-09', [29]),
      ...on('EST', '1997-10', [30]),
      ...on('EST', '1997-11', [27]),
      ...on('EST', '1997-12', [30]),
      ...on('EST', '1998-01', [29]),
      ...on('EST', '1998-02', [26]),
      ...on('EST', '1998-03', [30]),
    ],
    horizon: '1998-03-30 23:59:59',
  },
  {
    // The RFC writes UNTIL=19970902T170000Z, which is 13:00 EDT, yet lists 15:00 (see the test below):
    // its intent, "to 5:00 PM" New York time, is 17:00 EDT = 21:00 UTC.
    title: 'Every 3 hours from 9:00 AM to 5:00 PM on a specific day (UNTIL as the RFC means it, 5 PM EDT)',
    start: '1997-09-02 09:00:00',
    rules: ['FREQ=HOURLY;INTERVAL=3;UNTIL=19970902T210000Z'],
    expected: times('EDT', '1997-09-02', '09:00', '15:00', 180),
  },
  {
    title: 'Every 15 minutes for 6 occurrences',
    start: '1997-09-02 09:00:00',
    rules: ['FREQ=MINUTELY;INTERVAL=15;COUNT=6'],
    expected: times('EDT', '1997-09-02', '09:00', '10:15', 15),
  },
  {
    title: 'Every hour and a half for 4 occurrences',
    start: '1997-09-02 09:00:00',
    rules: ['FREQ=MINUTELY;INTERVAL=90;COUNT=4'],
    expected: times('EDT', '1997-09-02', '09:00', '13:30', 90),
  },
  {
    title: 'Every 20 minutes from 9:00 AM to 4:40 PM every day',
    start: '1997-09-02 09:00:00',
    rules: [
      'FREQ=DAILY;BYHOUR=9,10,11,12,13,14,15,16;BYMINUTE=0,20,40',
      'FREQ=MINUTELY;INTERVAL=20;BYHOUR=9,10,11,12,13,14,15,16',
    ],
    expected: [
      ...times('EDT', '1997-09-02', '09:00', '16:40', 20),
      ...times('EDT', '1997-09-03', '09:00', '16:40', 20),
    ],
    horizon: '1997-09-03 23:59:59',
  },
  {
    title: 'An example where the days generated makes a difference because of WKST (MO)',
    start: '1997-08-05 09:00:00',
    rules: ['FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO'],
    expected: on('EDT', '1997-08', [5, 10, 19, 24]),
  },
  {
    title: 'changing only WKST from MO to SU, yields different results',
    start: '1997-08-05 09:00:00',
    rules: ['FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU'],
    expected: on('EDT', '1997-08', [5, 17, 19, 31]),
  },
  {
    title: 'An example where an invalid date (i.e., February 30) is ignored',
    start: '2007-01-15 09:00:00',
    rules: ['FREQ=MONTHLY;BYMONTHDAY=15,30;COUNT=5'],
    expected: [...on('EST', '2007-01', [15, 30]), ...on('EST', '2007-02', [15]), ...on('EDT', '2007-03', [15, 30])],
  },
]

const cases = rows.flatMap((row) => row.rules.map((rule) => ({ ...row, rule })))
const FAR = '2100-01-01 00:00:00'

function series(row: { rule: string; exdate?: string[] }) {
  const { recurrence, problems } = readRecurrence({ rrule: `RRULE:${row.rule}`, exdate: row.exdate ?? [] })
  expect(problems).toEqual([])
  return recurrence
}

describe('the RRULE examples of RFC 5545 section 3.8.5.3', () => {
  it.each(cases)('$title: $rule', (row) => {
    const expansion = expand(series(row), row.start, NY, row.horizon ?? FAR)
    expect(expansion.starts).toEqual(row.expected.map((zoned) => zoned.wall))
    expect(expansion.openEnded).toBe(row.horizon !== undefined)
    expect(expansion.cut).toBe(false)
    expect(expansion.unmatched).toEqual([])
  })

  it.each(cases)('$title: each start is the instant of the RFC label (EDT or EST)', (row) => {
    for (const { wall, offset } of row.expected) {
      const instant = wallToInstant(wall, NY)
      expect(instant, wall).toBe(Date.parse(`${wall.replace(' ', 'T')}Z`) - offset * 3_600_000)
      expect(instantToWall(instant, NY)).toBe(wall)
    }
  })

  it('reads UNTIL=19970902T170000Z of "every 3 hours" as the normative text says (UTC, 13:00 EDT), not as its listed 15:00', () => {
    // RFC 5545 section 3.3.10: with a zoned DTSTART, UNTIL "MUST be specified as a date with UTC time". 17:00Z is
    // 13:00 EDT, so 15:00 is past it; the example's listed 15:00 contradicts the rule it gives.
    const expansion = expand(
      series({ rule: 'FREQ=HOURLY;INTERVAL=3;UNTIL=19970902T170000Z' }),
      '1997-09-02 09:00:00',
      NY,
      FAR,
    )
    expect(expansion.starts).toEqual(['1997-09-02 09:00:00', '1997-09-02 12:00:00'])
  })
})
