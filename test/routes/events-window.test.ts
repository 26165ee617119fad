import { describe, expect, it } from 'vitest'
import { call, fixtureApp, SAMPLE_NOW } from '../helpers.ts'

const ids = (body: { events: { id: number }[] }) => body.events.map((event) => event.id)

describe('the default window of GET /events (docs/compatibility.md §18) on a UTC+8 site', () => {
  it('starts at local midnight of the day holding "yesterday 23:59 UTC", and ends 24 months on', async () => {
    const app = await fixtureApp('window', { timezone: 'Asia/Kuala_Lumpur' })
    const { body } = await call(app, 'events')
    expect(body.rest_url).toBe(
      'http://127.0.0.1:8089/wp-json/calendar/events/v1/events/?page=1&per_page=9&start_date=2026-11-22 00:00:00&end_date=2028-11-22 23:59:59&status=publish',
    )
    // 8 starts 23:30 in London: 07:30 in Kuala Lumpur, inside the window (docs/compatibility.md §18). 9 and 3 share a start;
    // 9 was published first. 1 began before the window, 4 ends after it, 6 is hidden, 7 is a draft.
    expect(ids(body)).toEqual([8, 9, 3, 5])
    expect(body.total).toBe(4)
  })

  it('moves the window start to yesterday, local, once "yesterday 23:59 UTC" is the day before locally', async () => {
    const evening = SAMPLE_NOW + 18 * 3_600_000 // 20:08 UTC, 04:08 the next day in Kuala Lumpur
    const app = await fixtureApp('window', { timezone: 'Asia/Kuala_Lumpur', now: evening })
    const { body } = await call(app, 'events')
    expect(body.rest_url).toContain('start_date=2026-11-22 00:00:00&end_date=2028-11-22 23:59:59')
  })

  it('on a UTC site starts at yesterday 00:00', async () => {
    const app = await fixtureApp('window', { timezone: 'UTC' })
    const { body } = await call(app, 'events')
    expect(body.rest_url).toContain('start_date=2026-11-21 00:00:00&end_date=2028-11-22 23:59:59')
    // 4 ends at 01:00 in Kuala Lumpur, 17:00 UTC: inside a UTC window. 4 and 5 tie on start and date: id decides.
    expect(ids(body)).toEqual([2, 8, 9, 3, 4, 5])
  })

  it('still serves hidden events by id', async () => {
    const app = await fixtureApp('window', { timezone: 'Asia/Kuala_Lumpur' })
    expect((await call(app, 'events/6')).status).toBe(200)
  })

  it('blanks password-protected events in lists and reads them whole with the password', async () => {
    const app = await fixtureApp('reference')
    const list = await call(app, 'events')
    const secret = list.body.events.find((event: { id: number }) => event.id === 16)
    expect(secret).toMatchObject({ title: 'Secret Party', description: '', excerpt: '', featured: null, venue: [] })
    expect(Object.keys(secret.cost_details)).toEqual([
      'currency_symbol',
      'currency_position',
      'currency_code',
      'values',
    ])
    const unlocked = await call(app, 'events?password=s3cret')
    expect(unlocked.body.events.find((event: { id: number }) => event.id === 16).description).toBe(
      '<p>Hidden details</p>',
    )
  })

  it('reads the whole event with its password, without JSON-LD (docs/compatibility.md §21)', async () => {
    const app = await fixtureApp('reference')
    const { body } = await call(app, 'events/16?password=s3cret')
    expect(body.description).toBe('<p>Hidden details</p>')
    expect(body.json_ld).toBeUndefined()
  })

  it('caps per_page at 50 and says so in rest_url', async () => {
    const app = await fixtureApp('reference')
    const { body } = await call(app, 'events?per_page=1000')
    expect(body.rest_url).toContain('per_page=50')
  })
})
