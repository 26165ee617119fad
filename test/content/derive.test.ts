import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { eventTimes, idList, postDates } from '../../src/content/model/derive.ts'
import type { ContentRecord } from '../../src/content/model/record-types.ts'

const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)
const ZONES = ['UTC', 'Asia/Singapore', 'America/New_York', 'Europe/London', 'Australia/Lord_Howe']

const wall = fc
  .record({
    day: fc.integer({ min: 0, max: 3000 }),
    minute: fc.integer({ min: 0, max: 24 * 60 - 1 }),
  })
  .map(({ day, minute }) => {
    const date = new Date(Date.UTC(2024, 0, 1 + day, 0, minute)).toISOString()
    return `${date.slice(0, 10)} ${date.slice(11, 19)}`
  })

const record = fc
  .record({
    start: wall,
    end: wall,
    date: fc.option(wall, { nil: undefined }),
    timezone: fc.option(fc.constantFrom(...ZONES), { nil: undefined }),
    allDay: fc.boolean(),
    status: fc.constantFrom('publish', 'draft', 'future'),
    undatedMs: fc.integer({ min: 0, max: 2 ** 41 }),
  })
  .map(
    (r) =>
      ({
        kind: 'events',
        id: 1,
        stem: 'e',
        source: {
          path: 'events/e.en.md',
          lang: 'en',
          body: '',
          undatedMs: r.undatedMs,
          data: {
            start_date: r.start,
            end_date: r.end,
            status: r.status,
            all_day: r.allDay,
            ...(r.date === undefined ? {} : { date: r.date }),
            ...(r.timezone === undefined ? {} : { timezone: r.timezone }),
          },
        },
        files: new Map(),
      }) as unknown as ContentRecord,
  )

/** The same record as a new object: nothing kept for it yet. */
const fresh = (r: ContentRecord): ContentRecord => ({ ...r })

describe('dates kept per record and site zone (src/content/model/derive.ts)', () => {
  it('answers, in any order of zones, what a record read first in that zone answers, and the same value again', () => {
    fc.assert(
      fc.property(record, fc.array(fc.constantFrom(...ZONES), { minLength: 1, maxLength: 12 }), (r, zones) => {
        const seen = new Map<string, [unknown, unknown]>()
        for (const zone of zones) {
          const times = eventTimes(r, zone)
          const dates = postDates(r, zone)
          expect(times).toEqual(eventTimes(fresh(r), zone))
          expect(dates).toEqual(postDates(fresh(r), zone))
          const before = seen.get(zone)
          if (before) {
            expect(times).toBe(before[0])
            expect(dates).toBe(before[1])
          }
          seen.set(zone, [times, dates])
        }
      }),
      { seed, numRuns: 200 },
    )
  })

  it('reads an event with no zone of its own in each site zone', () => {
    const r = fc.sample(record, { seed: 1, numRuns: 1 })[0]!
    delete r.source.data.timezone
    r.source.data.all_day = false
    r.source.data.start_date = '2026-07-14 19:00:00'
    expect(eventTimes(r, 'UTC').start).toBe(Date.UTC(2026, 6, 14, 19))
    expect(eventTimes(r, 'Asia/Singapore').start).toBe(Date.UTC(2026, 6, 14, 11))
    expect(eventTimes(r, 'UTC').start).toBe(Date.UTC(2026, 6, 14, 19))
  })
})

describe('idList', () => {
  it('keeps the integers of a list once each, in the order first named, and a lone integer', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer(), fc.integer({ min: 1, max: 4 }), fc.double(), fc.string(), fc.constant(null))),
        (list) => {
          // -0 is 0 (`x + 0`): a set keeps it as 0, and no id is either.
          const plain = (ids: unknown[]) => ids.map((id) => (id as number) + 0)
          expect(plain(idList(list))).toEqual(plain([...new Set(list.filter((v) => Number.isInteger(v)))]))
          expect(idList(list)).not.toBe(list)
        },
      ),
      { seed },
    )
    expect(idList(7)).toEqual([7])
    expect(idList('7')).toEqual([])
    expect(idList(undefined)).toEqual([])
  })
})
