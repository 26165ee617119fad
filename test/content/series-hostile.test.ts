import { describe, expect, it } from 'vitest'
import { SERIES_LIMITS } from '../../src/content/model/recurrence.ts'
import { as, call, json, writableApp } from '../helpers.ts'
import { allPages, file, seriesApp } from '../series/tree.ts'

// Hostile series content: the server loads, every other event is served, each series serves at most
// SERIES_LIMITS.occurrences (after at most SERIES_LIMITS.steps steps of its rule), and what is wrong
// is told as a problem of its file.

const plain = file({
  id: 1,
  title: 'Plain event',
  slug: 'plain',
  start_date: '2026-12-01 10:00:00',
  end_date: '2026-12-01 11:00:00',
})
const series = (id: number, recurrence: unknown, more: Record<string, unknown> = {}) =>
  file({
    id,
    title: `Series ${id}`,
    slug: `series-${id}`,
    start_date: '2026-12-01 09:00:00',
    end_date: '2026-12-01 10:00:00',
    recurrence,
    ...more,
  })

async function load(files: Record<string, string>) {
  const app = await seriesApp({ 'events/plain.en.md': plain, ...files })
  expect((await call(app, 'events/1')).status).toBe(200)
  const list = await call(app, 'events?start_date=2026-11-01&end_date=2026-12-31&per_page=50')
  expect(list.status).toBe(200)
  expect(list.body.events.map((event: { id: number }) => event.id)).toContain(1)
  return app
}

const told = (app: Awaited<ReturnType<typeof load>>, path: string) =>
  app.problems.filter((problem) => problem.path === path).map((problem) => problem.message)

describe('hostile series content', () => {
  it('a rule of a million occurrences or a COUNT of 10^9 serves at most the limit, and says so', async () => {
    const app = await load({
      'events/minutely.en.md': series(2, { rrule: 'FREQ=MINUTELY;COUNT=1000000' }),
      'events/billion.en.md': series(3, { rrule: 'FREQ=DAILY;COUNT=1000000000' }),
    })
    expect(app.store.occurrencesOf(app.store.get('events', 2)!)).toHaveLength(SERIES_LIMITS.occurrences)
    expect(told(app, 'events/minutely.en.md').join('\n')).toMatch(/more than 1000 occurrences/)
    const daily = await allPages(app, 'post_parent=3&start_date=2026-01-01&end_date=2031-01-01', 50)
    expect(daily.at(-1).start_date).toBe('2028-12-31 09:00:00')
  })

  it('a series from 1900 serves what falls from 1970 on', async () => {
    const app = await load({
      'events/old.en.md': series(
        4,
        { rrule: 'FREQ=WEEKLY;BYDAY=MO' },
        { start_date: '1900-01-01 09:00:00', end_date: '1900-01-01 10:00:00' },
      ),
    })
    const served = app.store.occurrencesOf(app.store.get('events', 4)!)
    expect(served.length).toBeGreaterThan(0)
    expect(served.every((occurrence) => occurrence.series!.start >= '1970-01-01')).toBe(true)
    expect(served.every((occurrence) => occurrence.id > 4e9 && occurrence.id < 5e9)).toBe(true)
  })

  it('a series whose first start is in the years 1–999 loads and serves nothing, in a file and through the API', async () => {
    // ical.js's unpadded years (`50-06-08T10:00:00`) made the load throw: serve, build and check stopped at start.
    const files: Record<string, string> = {}
    for (const [i, year] of ['0001', '0050', '0099', '0500'].entries())
      files[`events/old-${year}.en.md`] = series(
        10 + i,
        { rrule: 'FREQ=WEEKLY;COUNT=3' },
        { start_date: `${year}-06-01 10:00:00`, end_date: `${year}-06-01 11:00:00` },
      )
    const app = await load(files)
    for (const id of [10, 11, 12, 13]) expect(app.store.occurrencesOf(app.store.get('events', id)!)).toEqual([])
    expect(told(app, 'events/old-0050.en.md')).toContain(
      'start_date: before 1970, where no occurrence is served; the series serves no occurrence',
    )
    const writable = await writableApp('reference')
    const body = { title: 'Old', start_date: '0050-06-01 10:00:00', end_date: '0050-06-01 11:00:00' }
    const created = await call(
      writable,
      'events',
      json('POST', { ...body, recurrence: 'FREQ=WEEKLY;COUNT=3' }, as('editor')),
    )
    expect(created.status).toBe(201)
  })

  it('1000 overrides are read; more, or overrides of fields an occurrence cannot change, are refused with a message', async () => {
    const many = (n: number) =>
      Object.fromEntries(
        Array.from({ length: n }, (_, i) => [
          new Date(Date.UTC(2026, 11, 1 + i)).toISOString().slice(0, 10),
          { title: `Day ${i}` },
        ]),
      )
    const app = await load({
      'events/thousand.en.md': series(5, { rrule: 'FREQ=DAILY' }, { overrides: many(1000) }),
      'events/toomany.en.md': series(6, { rrule: 'FREQ=DAILY' }, { overrides: many(1001) }),
      'events/fields.en.md': series(
        7,
        { rrule: 'FREQ=DAILY' },
        { overrides: { '2026-12-02': { status: 'draft', password: 'x', nonsense: 1 } } },
      ),
    })
    expect((await call(app, `events/${5e9 + Date.UTC(2026, 11, 3, 9) / 60_000}`)).body.title).toBe('Day 2')
    expect(told(app, 'events/toomany.en.md').join('\n')).toMatch(/overrides/)
    expect(told(app, 'events/fields.en.md').join('\n')).toMatch(/overrides/)
    for (const id of [6, 7]) {
      const record = app.store.get('events', id)
      const occurrences = record ? app.store.occurrencesOf(record) : []
      expect(occurrences.every((occurrence) => occurrence.source.data.status === undefined)).toBe(true)
      expect(occurrences.every((occurrence) => occurrence.source.data.password === undefined)).toBe(true)
    }
  })

  it('a translation that overrides fields it cannot translate is told, and changes no date', async () => {
    const app = await load({
      'events/yoga.en.md': series(8, { rrule: 'FREQ=WEEKLY;COUNT=4' }),
      'events/yoga.ms.md': file({
        title: 'Yoga',
        overrides: { '2026-12-08': { start_date: '2026-12-09 09:00:00', title: 'Yoga Rabu' } },
      }),
    })
    expect(told(app, 'events/yoga.ms.md').join('\n')).toMatch(/overrides/)
    const ms = await allPages(app, 'post_parent=8&ml_language=ms&start_date=2026-11-01&end_date=2027-01-31', 50)
    expect(ms.map((event) => event.start_date.slice(0, 10))).toEqual([
      '2026-12-01',
      '2026-12-08',
      '2026-12-15',
      '2026-12-22',
    ])
  })

  it.each([
    'FREQ=HOURLY;BYHOUR=25',
    'FREQ=DAILY;BYMINUTE=61',
    'FREQ=MONTHLY;BYDAY=9MO',
    'FREQ=YEARLY;BYWEEKNO=54',
    'FREQ=DAILY;BYSETPOS=0',
    'FREQ=DAILY;INTERVAL=0',
    'FREQ=WEEKLY;BYMONTH=2;BYMONTHDAY=30',
    'FREQ=SECONDLY',
    'FREQ=DAILY;UNTIL=garbage',
    'BYDAY=MO',
    'FREQ=DAILY;COUNT=0',
    'FREQ=DAILY;COUNT=2;UNTIL=20270101',
  ])('a rule that cannot be iterated (%s) is told, and the tree still loads and serves', async (rule) => {
    const app = await load({ 'events/bad.en.md': series(9, { rrule: rule }) })
    expect(told(app, 'events/bad.en.md').join('\n'), rule).toMatch(/rrule/)
    expect((await call(app, 'events/9')).status).toBeLessThan(500)
  })

  it('a series id too high for exact occurrence ids is told and serves no occurrence', async () => {
    const app = await load({ 'events/high.en.md': series(9_007_199, { rrule: 'FREQ=WEEKLY;COUNT=3' }) })
    expect(told(app, 'events/high.en.md').join('\n')).toMatch(/9007198/)
    const listed = await allPages(app, 'start_date=2026-01-01&end_date=2027-12-31', 50)
    expect(listed.every((event) => Number.isSafeInteger(event.id))).toBe(true)
  })

  // Known bugs of src/content/model/recurrence.ts (ical.js), left to its owner:

  // ical.js's iterator looped for ever on a DAILY, HOURLY or MINUTELY rule whose BYMONTH/BYMONTHDAY never
  // meet (its do/while has no bound but for MONTHLY and YEARLY): the store hung at load. recurrence.ts
  // checks those parts itself and bounds what ical.js tries; a rule that cannot be read is told.
  it('a rule that cannot be read (BYMONTHDAY=0) is told, and the tree loads', async () => {
    const app = await load({ 'events/never.en.md': series(9, { rrule: 'FREQ=DAILY;BYMONTHDAY=0' }) })
    expect(told(app, 'events/never.en.md').join('\n')).toMatch(/rrule/)
  })
  it.each(['FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30', 'FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=30'])(
    'a rule whose days never come (%s) loads, and serves its first start alone',
    async (rule) => {
      const app = await load({ 'events/never.en.md': series(9, { rrule: rule }) })
      expect(app.store.occurrencesOf(app.store.get('events', 9)!)).toHaveLength(1)
    },
  )

  // ical.js gives dates that are not on the rule (a February 30th became March 1st or 2nd, an April 31st December
  // 31st); recurrence.ts checks every date it yields against the rule.
  it.each(['FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30', 'FREQ=MONTHLY;BYMONTH=4;BYMONTHDAY=31'])(
    'a rule whose dates do not exist (%s) serves the first start alone',
    async (rule) => {
      const app = await load({ 'events/never.en.md': series(9, { rrule: rule }) })
      const starts = app.store.occurrencesOf(app.store.get('events', 9)!).map((occurrence) => occurrence.series!.start)
      expect(starts).toEqual(['2026-12-01 09:00:00'])
    },
  )

  // The step bound (SERIES_LIMITS.steps) cuts the rule before it reaches the horizon: a MINUTELY rule
  // serves February 2027, an HOURLY rule from 1900 nothing at all (its steps end in 1911, before 1970);
  // the design serves the 1000 occurrences nearest the horizon, and the warning says "the latest".
  it.fails('a rule cut by the step bound serves the occurrences nearest the horizon', async () => {
    const app = await load({
      'events/old.en.md': series(
        4,
        { rrule: 'FREQ=HOURLY' },
        { start_date: '1900-01-01 09:00:00', end_date: '1900-01-01 10:00:00' },
      ),
    })
    const served = app.store.occurrencesOf(app.store.get('events', 4)!)
    expect(served).toHaveLength(SERIES_LIMITS.occurrences)
    expect(served.at(-1)?.series?.start.slice(0, 10)).toMatch(/^(2028-12-31|2029-01-01)$/)
  })
})
