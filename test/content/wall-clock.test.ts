import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createStore, type Problem } from '../../src/content/store.ts'
import { call, fixtureApp } from '../helpers.ts'

describe('event times written by hand', () => {
  it.each([1, 2, 3, 4])('come back exactly, in their zone and in UTC across a DST change (event %i)', async (id) => {
    const app = await fixtureApp('wall-clock')
    expect(app.problems).toEqual([])
    const { body } = await call(app, `events/${id}`)
    expect(body.start_date).toBe('2027-03-28 00:30:00')
    expect(body.end_date).toBe('2027-03-28 03:00:00')
    // 00:30 is still GMT; 03:00 is already BST (clocks went forward at 01:00).
    expect(body.utc_start_date).toBe('2027-03-28 00:30:00')
    expect(body.utc_end_date).toBe('2027-03-28 02:00:00')
    expect(body.timezone_abbr).toBe('GMT')
    expect(body.json_ld.startDate).toBe('2027-03-28T00:30:00+00:00')
    expect(body.json_ld.endDate).toBe('2027-03-28T03:00:00+01:00')
  })
})

describe('the demo calendar shipped in content/', () => {
  it('loads without a problem but the one warning an open-ended series always gives', async () => {
    const problems: Problem[] = []
    const store = await createStore(resolve(import.meta.dirname, '../../content'), {
      defaultLanguage: 'en',
      fallback: true,
      timezone: 'Asia/Singapore',
      now: () => Date.UTC(2026, 10, 24),
      onProblem: (problem) => problems.push(problem),
    })
    expect(problems).toEqual([
      {
        path: 'events/tuesday-evening-watercolour-class.en.md',
        line: 20,
        severity: 'warning',
        message: 'recurrence.rrule: open-ended; occurrences are served up to 2029-01-01, and further as time goes on',
      },
    ])
    expect(store.list('events').length).toBeGreaterThanOrEqual(40)
    expect(store.list('venues').length).toBeGreaterThanOrEqual(8)
    expect(store.list('organizers').length).toBeGreaterThanOrEqual(6)
    const translated = store.list('events').filter((record) => record.files.size === 4)
    expect(translated.length).toBeGreaterThanOrEqual(store.list('events').length / 3)
  })

  it('has a weekly class and a monthly market with a cancelled month and a moved one, in all four languages', async () => {
    const store = await createStore(resolve(import.meta.dirname, '../../content'), {
      defaultLanguage: 'en',
      fallback: true,
      timezone: 'Asia/Singapore',
      now: () => Date.UTC(2026, 10, 24),
    })
    const series = store.list('events').filter((record) => record.source.data.recurrence !== undefined)
    expect(series.map((record) => [record.stem, [...record.files.keys()].sort()])).toEqual([
      ['tuesday-evening-watercolour-class', ['en', 'ms', 'ta', 'zh-hans']],
      ['first-saturday-night-market', ['en', 'ms', 'ta', 'zh-hans']],
    ])
    const market = store.occurrencesOf(series[1]!)
    expect(market.map((occurrence) => String(occurrence.source.data.start_date).slice(0, 10))).toEqual([
      '2026-11-07',
      '2026-12-05',
      '2027-01-02',
      '2027-03-06',
      '2027-04-03',
      '2027-05-08',
      '2027-06-05',
      '2027-07-03',
      '2027-08-07',
      '2027-09-04',
      '2027-10-02',
    ])
    const moved = market[5]!
    expect(store.fieldsIn(moved, 'zh-hans')?.title).toBe('首个星期六夜市（改至5月8日）')
    const classes = store.occurrencesOf(series[0]!)
    expect(classes.every((occurrence) => String(occurrence.source.data.start_date).endsWith(' 19:30:00'))).toBe(true)
    expect(classes.some((occurrence) => occurrence.series?.start.startsWith('2026-12-29'))).toBe(false)
  })
})
