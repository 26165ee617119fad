import { beforeAll, describe, expect, it } from 'vitest'
import { call, fixtureApp } from '../helpers.ts'

// An event's status and attendance as GET answers them (docs/compatibility.md §32), over test/fixtures/status: a plain
// concert (10), a cancelled picnic with a Malay reason (11), a postponed walk (12), a recital rescheduled in London
// (13), a stream moved online (14), a mixed talk (15), an online webinar (16), a protected cancelled night (17), a
// cancelled draft (18), a mixed talk at a protected hall (19), and a weekly choir series (20).

let app: Awaited<ReturnType<typeof fixtureApp>>
beforeAll(async () => {
  app = await fixtureApp('status')
  expect(app.problems.filter((p) => p.severity !== 'warning')).toEqual([])
})

const FIVE = ['event_status', 'event_status_reason', 'previous_start_date', 'attendance_mode', 'online_url']
const WIDE = 'per_page=50&start_date=2026-01-01&end_date=2028-12-31'
const ids = (body: { events: { id: number }[] }) => body.events.map((event) => event.id)
const five = (event: Record<string, unknown>) => Object.fromEntries(FIVE.map((key) => [key, event[key]]))

describe('the five keys of an event', () => {
  it('follow custom_fields, before json_ld, lang and translations', async () => {
    const single = (await call(app, 'events/10')).body
    const keys = Object.keys(single)
    expect(keys.slice(keys.indexOf('custom_fields'))).toEqual([
      'custom_fields',
      ...FIVE,
      'json_ld',
      'lang',
      'translations',
    ])
    const listed = (await call(app, `events?${WIDE}`)).body.events.find((e: { id: number }) => e.id === 10)
    const listKeys = Object.keys(listed)
    expect(listKeys.slice(listKeys.indexOf('custom_fields'))).toEqual([
      'custom_fields',
      ...FIVE,
      'lang',
      'translations',
    ])
  })

  it('say scheduled, offline and empty text for an event that sets nothing', async () => {
    expect(five((await call(app, 'events/10')).body)).toEqual({
      event_status: 'scheduled',
      event_status_reason: '',
      previous_start_date: '',
      attendance_mode: 'offline',
      online_url: '',
    })
  })

  it('carry each status, its reason in the language asked, and the previous start of a rescheduled event', async () => {
    expect(five((await call(app, 'events/11')).body)).toMatchObject({
      event_status: 'cancelled',
      event_status_reason: 'A storm is forecast.',
    })
    expect((await call(app, 'events/11?ml_language=ms')).body.event_status_reason).toBe('Ribut dijangka melanda.')
    // A language without a translation of the reason shows the source's.
    expect((await call(app, 'events/11?ml_language=ta')).body.event_status_reason).toBe('A storm is forecast.')
    expect((await call(app, 'events/12')).body.event_status).toBe('postponed')
    expect(five((await call(app, 'events/13')).body)).toEqual({
      event_status: 'rescheduled',
      event_status_reason: 'The pianist was unwell.',
      previous_start_date: '2026-12-08 19:30:00',
      attendance_mode: 'offline',
      online_url: '',
    })
  })

  it('answer online for an event moved online that names no mode, and each mode with its address', async () => {
    expect(five((await call(app, 'events/14')).body)).toMatchObject({
      event_status: 'moved_online',
      attendance_mode: 'online',
      online_url: 'https://stream.example.org/poetry',
    })
    expect((await call(app, 'events/15')).body.attendance_mode).toBe('mixed')
    expect((await call(app, 'events/16')).body.attendance_mode).toBe('online')
  })

  it('are blanked in lists where a password protects the event: reason and address, not status and mode', async () => {
    const listed = (await call(app, `events?${WIDE}`)).body.events.find((e: { id: number }) => e.id === 17)
    expect(five(listed)).toEqual({
      event_status: 'cancelled',
      event_status_reason: '',
      previous_start_date: '',
      attendance_mode: 'mixed',
      online_url: '',
    })
    const opened = (await call(app, 'events/17?password=members')).body
    expect(opened.event_status_reason).toBe('Secret reason')
    expect(opened.online_url).toBe('https://stream.example.org/secret')
  })
})

describe('the JSON-LD of a single read', () => {
  const ld = async (id: number, lang = 'en') => (await call(app, `events/${id}?ml_language=${lang}`)).body.json_ld
  const STATUS = {
    10: 'EventScheduled',
    11: 'EventCancelled',
    12: 'EventPostponed',
    13: 'EventRescheduled',
    14: 'EventMovedOnline',
  } as const

  it('names each status as schema.org does', async () => {
    for (const [id, status] of Object.entries(STATUS))
      expect((await ld(Number(id))).eventStatus, id).toBe(`https://schema.org/${status}`)
  })

  it('gives a rescheduled event its previous start, with the offset of its zone then', async () => {
    const recital = await ld(13)
    expect(recital.startDate).toBe('2027-01-15T19:30:00+00:00')
    expect(recital.previousStartDate).toBe('2026-12-08T19:30:00+00:00')
    expect(Object.keys(recital).indexOf('previousStartDate')).toBe(Object.keys(recital).indexOf('endDate') + 1)
    expect(await ld(11)).not.toHaveProperty('previousStartDate')
  })

  it('places an offline event at its venue, an online one at its address, a mixed one at both', async () => {
    const offline = await ld(10)
    expect(offline.eventAttendanceMode).toBe('https://schema.org/OfflineEventAttendanceMode')
    expect(offline.location['@type']).toBe('Place')
    const online = await ld(14)
    expect(online.eventAttendanceMode).toBe('https://schema.org/OnlineEventAttendanceMode')
    expect(online.location).toEqual({ '@type': 'VirtualLocation', url: 'https://stream.example.org/poetry' })
    const webinar = await ld(16)
    expect(webinar.location).toEqual({ '@type': 'VirtualLocation', url: 'https://stream.example.org/webinar' })
    const mixed = await ld(15)
    expect(mixed.eventAttendanceMode).toBe('https://schema.org/MixedEventAttendanceMode')
    expect(mixed.location.map((part: { '@type': string }) => part['@type'])).toEqual(['Place', 'VirtualLocation'])
    expect(mixed.location[1].url).toBe('https://stream.example.org/film')
  })

  it('leaves out a protected venue beside an online address, and keeps the reference key order otherwise', async () => {
    const hidden = await ld(19)
    expect(hidden.location).toEqual({ '@type': 'VirtualLocation', url: 'https://stream.example.org/hidden' })
    expect(Object.keys(await ld(10))).toEqual([
      '@context',
      '@type',
      'name',
      'description',
      'url',
      'eventAttendanceMode',
      'eventStatus',
      'startDate',
      'endDate',
      'location',
      'performer',
    ])
  })
})

describe('GET /events?event_status=', () => {
  it('lists only the events with one of the statuses asked, as a CSV list or an array', async () => {
    const csv = await call(app, `events?${WIDE}&event_status=cancelled,postponed`)
    expect(csv.status).toBe(200)
    expect(ids(csv.body)).toEqual([11, 12, 17])
    const array = await call(app, `events?${WIDE}&event_status[]=rescheduled&event_status[]=moved_online`)
    expect(ids(array.body)).toEqual([14, 13])
    const scheduled = await call(app, `events?${WIDE}&event_status=scheduled`)
    expect(ids(scheduled.body)).toEqual(expect.arrayContaining([10, 15, 16, 19]))
    expect(ids(scheduled.body)).not.toContain(11)
  })

  it('never shows a draft to an anonymous caller, whatever its status', async () => {
    expect(ids((await call(app, `events?${WIDE}&event_status=cancelled`)).body)).not.toContain(18)
  })

  it('combines with a date window and with a search', async () => {
    const window = await call(app, 'events?start_date=2026-12-06&end_date=2026-12-07 23:59&event_status=cancelled')
    expect(ids(window.body)).toEqual([11])
    const searched = await call(app, `events?${WIDE}&search=walk&event_status=postponed`)
    expect(ids(searched.body)).toEqual([12])
    const none = await call(app, `events?${WIDE}&search=picnic&event_status=postponed`)
    expect(none.status).toBe(200)
    expect(ids(none.body)).toEqual([])
  })

  it('lists the occurrences of a series by their own status', async () => {
    const choir = await call(app, `events?${WIDE}&post_parent=20&event_status=scheduled`)
    expect(choir.body.events).toHaveLength(4)
    expect(ids((await call(app, `events?${WIDE}&post_parent=20&event_status=cancelled`)).body)).toEqual([])
  })

  it('keeps the filter in the links it gives', async () => {
    const page = await call(app, 'events?per_page=1&start_date=2026-01-01&event_status=cancelled,postponed')
    expect(new URL(page.body.next_rest_url).searchParams.get('event_status')).toBe('cancelled,postponed')
    expect(new URL(page.body.rest_url).searchParams.get('event_status')).toBe('cancelled,postponed')
    expect(page.body.total).toBe(3)
  })

  it('refuses a status that is not one of the five with 400 rest_invalid_param', async () => {
    for (const value of ['canceled', 'Cancelled', 'cancelled,gone', '', ',']) {
      const response = await call(app, `events?event_status=${encodeURIComponent(value)}`)
      expect(response.status, value).toBe(400)
      expect(response.body.code).toBe('rest_invalid_param')
      expect(response.body.data.params.event_status).toContain('is not one of scheduled, cancelled')
    }
  })
})

describe('the route index and /doc', () => {
  it('describe the list filter and the write arguments with their values', async () => {
    const index = (await call(app, '')).body.routes['/calendar/events/v1/events']
    const [list, create] = index.endpoints
    expect(list.args.event_status.items).toEqual({
      type: 'string',
      enum: ['scheduled', 'cancelled', 'postponed', 'rescheduled', 'moved_online'],
    })
    expect(create.args.attendance_mode.enum).toEqual(['offline', 'online', 'mixed'])
    expect(Object.keys(create.args)).toEqual(expect.arrayContaining(FIVE))
    const doc = (await call(app, 'doc')).body
    const filter = doc.paths['/events'].get.parameters.find((p: { name: string }) => p.name === 'event_status')
    expect(filter.schema.items.enum).toContain('moved_online')
    const body = doc.paths['/events/{id}'].post.requestBody.content['application/x-www-form-urlencoded'].schema
    expect(body.properties.event_status.enum).toContain('cancelled')
    const event = Object.keys(doc.components.schemas.Event.properties)
    expect(event.slice(event.indexOf('organizer') + 1, event.indexOf('organizer') + 6)).toEqual(FIVE)
  })
})
