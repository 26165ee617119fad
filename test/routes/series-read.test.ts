import { beforeAll, describe, expect, it } from 'vitest'
import { occurrenceId } from '../../src/content/model/recurrence.ts'
import { call, fixtureApp, SAMPLE_NOW } from '../helpers.ts'
import { allPages, file, seriesApp } from '../series/tree.ts'

// test/fixtures/series, clock at SAMPLE_NOW (2026-11-22): a single concert (20), Tuesday Yoga (30,
// weekly from 2026-09-01 09:00 Europe/London, open-ended, 2026-12-29 excluded, 2026-12-22 moved to
// Wednesday 18:00 as "Christmas Yoga", "Yoga Krismas" in Malay) and the Night Market (40, first
// Saturday monthly from 2026-12-05 18:00 Asia/Kuala_Lumpur, COUNT=6, 2027-02-06 excluded,
// 2027-03-06 moved to 2027-03-13 with a description of its own).

let app: Awaited<ReturnType<typeof fixtureApp>>
beforeAll(async () => {
  app = await fixtureApp('series')
})

const API = 'http://127.0.0.1:8089/wp-json/calendar/events/v1'
const yoga = (date: string) => occurrenceId(30, `${date} 09:00:00`)
const market = (date: string) => occurrenceId(40, `${date} 18:00:00`)

/** Every Tuesday from `from` to `to` (dates), as the yoga rule names them. */
function tuesdays(from: string, to: string): string[] {
  const out: string[] = []
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 7 * 86_400_000)
    out.push(new Date(t).toISOString().slice(0, 10))
  return out
}

describe('lists of a series tree', () => {
  it('show the occurrences of series, each an event of its own, and never the series record', async () => {
    const events = await allPages(app, 'start_date=2026-09-01&end_date=2027-12-31', 50)
    const ids = events.map((event) => event.id)
    expect(ids).not.toContain(30)
    expect(ids).not.toContain(40)
    expect(ids).toContain(20)
    expect(ids).toContain(yoga('2026-09-01'))
    expect(new Set(ids).size).toBe(ids.length)
    expect(
      events.filter((event) => event.id > 1e9).every((event) => event.series?.id === Math.floor(event.id / 1e9)),
    ).toBe(true)
  })

  it('post_parent lists exactly the series occurrences, page after page, with X-TEC-Total', async () => {
    const events = await allPages(app, 'post_parent=30&start_date=2026-09-01&end_date=2027-12-31', 7)
    const expected = tuesdays('2026-09-01', '2027-12-28').filter((date) => date !== '2026-12-29')
    expect(events.map((event) => event.id)).toEqual(expected.map(yoga))
    expect(events.every((event) => event.series.id === 30)).toBe(true)
    const marketEvents = await allPages(app, 'post_parent=40&start_date=2026-01-01&end_date=2028-01-01', 2)
    expect(marketEvents.map((event) => event.id)).toEqual(
      ['2026-12-05', '2027-01-02', '2027-03-06', '2027-04-03', '2027-05-01'].map(market),
    )
  })

  it('post_parent without dates starts now, as every event list does', async () => {
    const events = await allPages(app, 'post_parent=40', 9)
    expect(events[0].id).toBe(market('2026-12-05'))
    const yogaNow = await allPages(app, 'post_parent=30', 50)
    expect(yogaNow[0].id).toBe(yoga('2026-11-24'))
  })

  it('filter occurrences by category, venue and search like any event', async () => {
    const range = 'start_date=2026-11-22&end_date=2027-06-30'
    const classes = await allPages(app, `categories=2&${range}`, 50)
    expect(classes.length).toBeGreaterThan(20)
    expect(classes.every((event) => event.series?.id === 30)).toBe(true)
    const square = await allPages(app, `venue=11&${range}`, 50)
    expect(square.map((event) => event.id)).toEqual(
      ['2026-12-05', '2027-01-02', '2027-03-06', '2027-04-03', '2027-05-01'].map(market),
    )
    const christmas = await allPages(app, `search=christmas&${range}`, 50)
    expect(christmas.map((event) => event.id)).toEqual([yoga('2026-12-22')])
    const krismas = await allPages(app, `search=krismas&ml_language=ms&${range}`, 50)
    expect(krismas.map((event) => event.id)).toEqual([yoga('2026-12-22')])
    expect(await allPages(app, `search=krismas&${range}`, 50)).toEqual([])
  })
})

describe('include', () => {
  it('takes occurrence ids like any event id', async () => {
    const ids = [yoga('2026-12-01'), market('2027-01-02'), 20]
    const events = await allPages(app, `include=${ids.join(',')}&start_date=2026-01-01&end_date=2028-01-01`, 50)
    expect(events.map((event) => event.id).sort()).toEqual([...ids].sort())
  })
})

describe('one occurrence', () => {
  it('answers by id with its own dates (local, UTC, details), url, rest_url and series', async () => {
    const id = market('2027-01-02')
    const { status, body } = await call(app, `events/${id}`)
    expect(status).toBe(200)
    expect(body).toMatchObject({
      id,
      title: 'Night Market',
      slug: 'night-market-2027-01-02',
      url: 'http://127.0.0.1:8089/event/night-market/2027-01-02/',
      rest_url: `${API}/events/${id}`,
      start_date: '2027-01-02 18:00:00',
      end_date: '2027-01-02 23:00:00',
      utc_start_date: '2027-01-02 10:00:00',
      utc_end_date: '2027-01-02 15:00:00',
      start_date_details: { year: '2027', month: '01', day: '02', hour: '18', minutes: '00', seconds: '00' },
      timezone: 'Asia/Kuala_Lumpur',
      series: { id: 40, rest_url: `${API}/events/40`, start_date: '2027-01-02 18:00:00' },
    })
    expect(body.recurrence).toBeUndefined()
    expect(Object.keys(body).slice(-3)).toEqual(['lang', 'translations', 'series'])
  })

  it('shows its override: moved dates and a description of its own, under its original date', async () => {
    const { body } = await call(app, `events/${market('2027-03-06')}`)
    expect(body).toMatchObject({
      slug: 'night-market-2027-03-06',
      url: 'http://127.0.0.1:8089/event/night-market/2027-03-06/',
      start_date: '2027-03-13 18:00:00',
      end_date: '2027-03-13 23:00:00',
      description: '<p>Moved a week later this month.</p>',
      series: { id: 40, start_date: '2027-03-06 18:00:00' },
    })
    const other = await call(app, `events/${market('2027-04-03')}`)
    expect(other.body.description).toBe('<p>Food stalls on the first Saturday of the month.</p>')
  })

  it('an excluded date is no occurrence: 404 by id, absent from lists', async () => {
    expect((await call(app, `events/${market('2027-02-06')}`)).status).toBe(404)
    expect((await call(app, `events/${yoga('2026-12-29')}`)).status).toBe(404)
    const december = await allPages(app, 'post_parent=30&start_date=2026-12-24&end_date=2027-01-04', 9)
    expect(december).toEqual([])
  })

  it('a translation override shows in its language only', async () => {
    const id = yoga('2026-12-22')
    const en = await call(app, `events/${id}`)
    const ms = await call(app, `events/${id}?ml_language=ms`)
    expect(en.body).toMatchObject({ title: 'Christmas Yoga', slug: 'tuesday-yoga-2026-12-22' })
    expect(en.body.start_date).toBe('2026-12-23 18:00:00')
    expect(ms.body).toMatchObject({
      title: 'Yoga Krismas',
      slug: 'yoga-selasa-2026-12-22',
      url: 'http://127.0.0.1:8089/ms/event/yoga-selasa/2026-12-22/',
      description: '<p>Regangan setiap pagi Selasa.</p>',
      start_date: '2026-12-23 18:00:00',
    })
    const plain = await call(app, `events/${yoga('2026-12-15')}?ml_language=ms`)
    expect(plain.body.title).toBe('Yoga Selasa')
    expect(en.body.translations.ms).toEqual({
      id,
      slug: 'yoga-selasa-2026-12-22',
      rest_url: `${API}/events/${id}?ml_language=ms`,
    })
  })

  it('keeps 09:00 in Europe/London across both DST changes; its UTC start moves by an hour', async () => {
    const cases = [
      ['2027-03-23', '09:00:00'],
      ['2027-03-30', '08:00:00'],
      ['2027-10-26', '08:00:00'],
      ['2027-11-02', '09:00:00'],
    ]
    for (const [date, utc] of cases) {
      const { body } = await call(app, `events/${yoga(date!)}`)
      expect([body.start_date, body.utc_start_date, body.end_date]).toEqual([
        `${date} 09:00:00`,
        `${date} ${utc}`,
        `${date} 10:00:00`,
      ])
    }
  })
})

describe('the series record', () => {
  it('answers by id with its recurrence: rule, exclusions and the next occurrences from today', async () => {
    const { status, body } = await call(app, 'events/30')
    expect(status).toBe(200)
    expect(body.recurrence).toMatchObject({ rrule: 'FREQ=WEEKLY;BYDAY=TU', rdate: [], exdate: ['2026-12-29'] })
    expect(body.recurrence.next.map((next: { id: number }) => next.id)).toEqual(
      ['2026-11-24', '2026-12-01', '2026-12-08', '2026-12-15', '2026-12-22'].map(yoga),
    )
    expect(body.recurrence.next[4]).toMatchObject({
      start_date: '2026-12-23 18:00:00',
      end_date: '2026-12-23 19:30:00',
      rest_url: `${API}/events/${yoga('2026-12-22')}`,
    })
    expect(Object.keys(body).slice(-3)).toEqual(['lang', 'translations', 'recurrence'])
    expect(body.series).toBeUndefined()
  })

  // A series' JSON is kept for its day (an event's for the epoch of what it shows): the same running app, a week on,
  // lists the next occurrences from that day.
  it('moves its next occurrences on with the clock, in the same running app', async () => {
    const clock = { now: SAMPLE_NOW }
    const moving = await fixtureApp('series', clock)
    const nextIds = async () => (await call(moving, 'events/30')).body.recurrence.next.map((n: { id: number }) => n.id)
    expect(await nextIds()).toEqual(['2026-11-24', '2026-12-01', '2026-12-08', '2026-12-15', '2026-12-22'].map(yoga))
    clock.now = SAMPLE_NOW + 7 * 86_400_000
    expect(await nextIds()).toEqual(['2026-12-01', '2026-12-08', '2026-12-15', '2026-12-22', '2027-01-05'].map(yoga))
  })

  it('a single event answers without series fields', async () => {
    const { body } = await call(app, 'events/20')
    expect(body.recurrence).toBeUndefined()
    expect(body.series).toBeUndefined()
    expect(Object.keys(body).slice(-2)).toEqual(['lang', 'translations'])
  })
})

describe('by slug', () => {
  it('the series slug answers the series; the slug with a date answers that occurrence', async () => {
    expect((await call(app, 'events/by-slug/tuesday-yoga')).body.id).toBe(30)
    expect((await call(app, 'events/by-slug/tuesday-yoga-2027-01-05')).body.id).toBe(yoga('2027-01-05'))
    expect((await call(app, 'events/by-slug/night-market-2027-03-06')).body.id).toBe(market('2027-03-06'))
  })

  it('in Malay, by the Malay slugs', async () => {
    const series = await call(app, 'events/by-slug/yoga-selasa?ml_language=ms')
    expect(series.body).toMatchObject({ id: 30, title: 'Yoga Selasa' })
    const one = await call(app, 'events/by-slug/yoga-selasa-2026-12-22?ml_language=ms')
    expect(one.body).toMatchObject({ id: yoga('2026-12-22'), title: 'Yoga Krismas' })
  })

  it('a date that is no occurrence (excluded, not on the rule, past the count) finds nothing', async () => {
    for (const slug of ['tuesday-yoga-2026-12-29', 'tuesday-yoga-2026-12-30', 'night-market-2027-06-05'])
      expect((await call(app, `events/by-slug/${slug}`)).status, slug).toBeGreaterThanOrEqual(400)
  })

  it('a language without a file of the series falls back for the occurrence as for the series', async () => {
    const series = await call(app, 'events/by-slug/night-market?ml_language=ms')
    const occurrence = await call(app, 'events/by-slug/night-market-2027-01-02?ml_language=ms')
    expect([occurrence.status, occurrence.body.lang]).toEqual([series.status, series.body.lang])
    expect(occurrence.status).toBe(200)
    expect(occurrence.body.id).toBe(market('2027-01-02'))
  })

  it('an occurrence slug in another language answers as the series slug does there', async () => {
    const series = await call(app, 'events/by-slug/tuesday-yoga?ml_language=ms')
    const occurrence = await call(app, 'events/by-slug/tuesday-yoga-2027-01-05?ml_language=ms')
    expect(occurrence.status).toBe(series.status)
  })
})

describe('all-day, multi-day and twice-a-day series', () => {
  const tree = {
    'events/fair.en.md': file({
      id: 50,
      title: 'Weekly Fair',
      slug: 'weekly-fair',
      start_date: '2026-12-01 00:00:00',
      end_date: '2026-12-01 23:59:59',
      all_day: true,
      timezone: 'UTC',
      recurrence: { rrule: 'FREQ=DAILY;INTERVAL=7;COUNT=3' },
    }),
    'events/retreat.en.md': file({
      id: 60,
      title: 'Weekend Retreat',
      slug: 'weekend-retreat',
      start_date: '2027-03-19 18:00:00',
      end_date: '2027-03-21 12:00:00',
      timezone: 'Europe/London',
      recurrence: { rrule: 'FREQ=WEEKLY;COUNT=2', rdate: ['2027-05-07'] },
    }),
    'events/twin.en.md': file({
      id: 61,
      title: 'Retreat twin',
      start_date: '2027-03-26 18:00:00',
      end_date: '2027-03-28 12:00:00',
      timezone: 'Europe/London',
    }),
    'events/clinic.en.md': file({
      id: 70,
      title: 'Clinic',
      slug: 'clinic',
      start_date: '2026-12-02 09:00:00',
      end_date: '2026-12-02 10:00:00',
      timezone: 'UTC',
      recurrence: { rrule: 'FREQ=HOURLY;INTERVAL=6;COUNT=4', exdate: ['2026-12-03 03:00:00'] },
    }),
  }

  it('an all-day series: every occurrence is all day, on its own date', async () => {
    const fair = await seriesApp(tree)
    const events = await allPages(fair, 'post_parent=50&start_date=2026-11-01&end_date=2027-01-31', 2)
    expect(events.map((event) => [event.all_day, event.start_date, event.end_date])).toEqual([
      [true, '2026-12-01 00:00:00', '2026-12-01 23:59:59'],
      [true, '2026-12-08 00:00:00', '2026-12-08 23:59:59'],
      [true, '2026-12-15 00:00:00', '2026-12-15 23:59:59'],
    ])
    expect(fair.problems).toEqual([])
  })

  it('a multi-day series keeps its wall-clock span, across a DST change too; an rdate takes the first time', async () => {
    const retreat = await seriesApp(tree)
    const events = await allPages(retreat, 'post_parent=60&start_date=2027-01-01&end_date=2027-12-31', 9)
    expect(events.map((event) => [event.start_date, event.end_date, event.utc_end_date])).toEqual([
      ['2027-03-19 18:00:00', '2027-03-21 12:00:00', '2027-03-21 12:00:00'],
      ['2027-03-26 18:00:00', '2027-03-28 12:00:00', '2027-03-28 11:00:00'],
      ['2027-05-07 18:00:00', '2027-05-09 12:00:00', '2027-05-09 11:00:00'],
    ])
    // A list window finds an occurrence exactly when it finds a single event with the same dates.
    for (const window of [
      'start_date=2027-03-27&end_date=2027-03-27 23:59',
      'start_date=2027-03-28 11:30&end_date=2027-04-01',
    ]) {
      const found = (await allPages(retreat, window, 9)).map((event) => event.id)
      expect(found.includes(occurrenceId(60, '2027-03-26 18:00:00')), window).toBe(found.includes(61))
    }
  })

  it('several occurrences on one day: the slugs carry the time, each answers by slug', async () => {
    const clinic = await seriesApp(tree)
    const events = await allPages(clinic, 'post_parent=70&start_date=2026-12-01&end_date=2026-12-31', 9)
    expect(events.map((event) => event.slug)).toEqual([
      'clinic-2026-12-02-0900',
      'clinic-2026-12-02-1500',
      'clinic-2026-12-02-2100',
    ])
    for (const event of events) expect((await call(clinic, `events/by-slug/${event.slug}`)).body.id).toBe(event.id)
    expect(events.map((event) => event.url)).toEqual(Array(3).fill('http://127.0.0.1:8089/event/clinic/2026-12-02/'))
  })
})

describe('an override of linked fields', () => {
  const tree = {
    'venues/h.en.md': file({ id: 10, venue: 'Hall', slug: 'hall' }),
    'venues/s.en.md': file({ id: 11, venue: 'Square', slug: 'square' }),
    'categories/c.en.md': file({ id: 2, name: 'Classes', slug: 'classes' }),
    'categories/d.en.md': file({ id: 3, name: 'Special', slug: 'special' }),
    'events/a.en.md': file({
      id: 5,
      title: 'Class',
      slug: 'class',
      start_date: '2026-12-01 09:00:00',
      end_date: '2026-12-01 10:00:00',
      venue: 10,
      categories: [2],
      recurrence: { rrule: 'FREQ=WEEKLY;COUNT=4' },
      overrides: {
        '2026-12-08': { venue: 11, categories: [3], featured: true },
        '2026-12-15': { hide_from_listings: true },
      },
    }),
  }
  const at = (day: number) => occurrenceId(5, `2026-12-${String(day).padStart(2, '0')} 09:00:00`)
  const ids = async (app: Awaited<ReturnType<typeof seriesApp>>, path: string) => {
    const body = (await call(app, path)).body
    return (body.events ?? body.venues ?? body.categories).map((item: { id: number }) => item.id)
  }

  it('moves that occurrence alone in filters, reverse lookups, embedded records and JSON-LD', async () => {
    const app = await seriesApp(tree)
    const range = 'start_date=2026-11-01&end_date=2027-01-31'
    expect(await ids(app, `events?venue=11&${range}`)).toEqual([at(8)])
    expect(await ids(app, `events?venue=10&${range}`)).toEqual([at(1), at(22)])
    expect(await ids(app, `events?categories=3&${range}`)).toEqual([at(8)])
    expect(await ids(app, `events?featured=true&${range}`)).toEqual([at(8)])
    expect(await ids(app, `venues?event=${at(8)}`)).toEqual([11])
    expect(await ids(app, `categories?post=${at(8)}`)).toEqual([3])
    const one = (await call(app, `events/${at(8)}`)).body
    expect([one.venue.id, one.categories.map((c: { id: number }) => c.id), one.featured]).toEqual([11, [3], true])
    expect(one.json_ld).toMatchObject({
      startDate: '2026-12-08T09:00:00+00:00',
      url: 'http://127.0.0.1:8089/event/class/2026-12-08/',
    })
  })

  it('hide_from_listings on one occurrence hides it from lists, not by id', async () => {
    const app = await seriesApp(tree)
    expect(await ids(app, 'events?start_date=2026-11-01&end_date=2027-01-31')).toEqual([at(1), at(8), at(22)])
    expect((await call(app, `events/${at(15)}`)).status).toBe(200)
  })
})
