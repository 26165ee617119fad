import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { occurrenceId } from '../../src/content/model/recurrence.ts'
import { as, call, json, type Login, writableApp } from '../helpers.ts'
import { reloadApp, snapshot } from './writes-tree.ts'

// Writing an event's status and attendance through the API (docs/compatibility.md §32), over test/fixtures/status.

let app: Awaited<ReturnType<typeof writableApp>>
beforeEach(async () => {
  app = await writableApp('status')
})
afterEach(async () => {
  await rm(app.dir, { recursive: true, force: true })
})

const read = (path: string) => readFile(join(app.content, 'events', path), 'utf8')
const GIG = { title: 'Rooftop Gig', start_date: '2027-02-01 19:00:00', end_date: '2027-02-01 21:00:00' }
const choir = (day: string) => occurrenceId(20, `${day} 18:00:00`)

/** Expects a write refused with 400 `rest_invalid_param` naming `param`, and the tree as it was, byte for byte. */
async function expectRefused(method: string, path: string, body: unknown, param: string, login: Login = 'admin') {
  const before = await snapshot(app.content)
  const response = await call(app, path, json(method, body, as(login)))
  expect(response.status, response.text).toBe(400)
  expect(response.body.code).toBe('rest_invalid_param')
  expect(Object.keys(response.body.data.params)).toEqual([param])
  expect(await snapshot(app.content)).toEqual(before)
  return response.body.data.params[param] as string
}

describe('POST /events with a status and an attendance mode', () => {
  it('writes the fields to the source file and answers them', async () => {
    const body = {
      ...GIG,
      event_status: 'postponed',
      event_status_reason: 'Waiting for the permit.',
      attendance_mode: 'mixed',
      online_url: 'https://stream.example.org/rooftop',
    }
    const response = await call(app, 'events', json('POST', body, as('admin')))
    expect(response.status, response.text).toBe(201)
    expect(response.body).toMatchObject({
      event_status: 'postponed',
      event_status_reason: 'Waiting for the permit.',
      previous_start_date: '',
      attendance_mode: 'mixed',
      online_url: 'https://stream.example.org/rooftop',
    })
    const file = await read('rooftop-gig.en.md')
    expect(file).toContain(
      [
        'event_status: postponed',
        'event_status_reason: Waiting for the permit.',
        'attendance_mode: mixed',
        'online_url: https://stream.example.org/rooftop',
      ].join('\n'),
    )
    // What was written loads again as it was answered.
    const reloaded = await reloadApp(app.content)
    expect(reloaded.problems.filter((p) => p.severity !== 'warning')).toEqual([])
    expect((await call(reloaded, `events/${response.body.id}`)).body.event_status).toBe('postponed')
  })

  it('refuses a status or a mode that is not written exactly, leaving the tree as it was', async () => {
    for (const event_status of ['canceled', 'Cancelled', 'CANCELLED', 'moved-online', 1])
      expect(await expectRefused('POST', 'events', { ...GIG, event_status }, 'event_status')).toBe(
        'event_status is not one of scheduled, cancelled, postponed, rescheduled, moved_online.',
      )
    for (const attendance_mode of ['hybrid', 'Online', ['online']])
      await expectRefused('POST', 'events', { ...GIG, attendance_mode }, 'attendance_mode')
  })

  it('refuses an online address that is not http(s), and a previous start that is not a date', async () => {
    for (const online_url of [
      'javascript:alert(1)',
      ' JAVASCRIPT:alert(1)',
      'data:text/html,x',
      'ftp://x.org/',
      'https://',
    ])
      await expectRefused('POST', 'events', { ...GIG, online_url }, 'online_url')
    await expectRefused('POST', 'events', { ...GIG, previous_start_date: 'someday' }, 'previous_start_date')
    await expectRefused('POST', 'events', { ...GIG, event_status_reason: { text: 'x' } }, 'event_status_reason')
  })

  it('strips markup from a reason a contributor writes', async () => {
    const body = {
      ...GIG,
      event_status: 'cancelled',
      event_status_reason: 'Rain <script>alert(1)</script><b>again</b>',
    }
    const response = await call(app, 'events', json('POST', body, as('contributor')))
    expect(response.status, response.text).toBe(201)
    expect(response.body.event_status_reason).toBe('Rain again')
  })
})

describe('PATCH /events/{id} with a status', () => {
  it('cancels an event with a reason, and clears the reason with empty text', async () => {
    const cancelled = await call(
      app,
      'events/10',
      json('PATCH', { event_status: 'cancelled', event_status_reason: 'The hall flooded.' }, as('editor')),
    )
    expect(cancelled.status, cancelled.text).toBe(200)
    expect(cancelled.body.event_status).toBe('cancelled')
    expect(await read('plain-concert.en.md')).toMatch(
      /^event_status: cancelled\nevent_status_reason: The hall flooded\.$/m,
    )
    const listed = await call(app, 'events?event_status=cancelled&start_date=2026-01-01&per_page=50')
    expect(listed.body.events.map((e: { id: number }) => e.id)).toContain(10)
    const cleared = await call(app, 'events/10', json('PATCH', { event_status_reason: '' }, as('editor')))
    expect(cleared.body.event_status_reason).toBe('')
    expect(await read('plain-concert.en.md')).not.toContain('event_status_reason')
  })

  it('records the old start when an event is rescheduled and moved in one write', async () => {
    const moved = await call(
      app,
      'events/10',
      json(
        'PATCH',
        { event_status: 'rescheduled', start_date: '2027-01-09 19:00', end_date: '2027-01-09 22:00' },
        as('admin'),
      ),
    )
    expect(moved.status, moved.text).toBe(200)
    expect(moved.body.previous_start_date).toBe('2026-12-05 19:00:00')
    expect(moved.body.start_date).toBe('2027-01-09 19:00:00')
    const ld = (await call(app, 'events/10')).body.json_ld
    expect(ld.eventStatus).toBe('https://schema.org/EventRescheduled')
    expect(ld.previousStartDate).toBe('2026-12-05T19:00:00+08:00')
  })

  it('keeps a previous start the write gives, read in the event zone', async () => {
    const moved = await call(
      app,
      'events/10',
      json(
        'PATCH',
        {
          event_status: 'rescheduled',
          start_date: '2027-01-09 19:00',
          end_date: '2027-01-09 22:00',
          previous_start_date: '2026-11-30 20:00',
        },
        as('admin'),
      ),
    )
    expect(moved.body.previous_start_date).toBe('2026-11-30 20:00:00')
  })

  it('does not invent a previous start when the start does not move, or the status is not rescheduled', async () => {
    const same = await call(app, 'events/10', json('PATCH', { event_status: 'rescheduled' }, as('admin')))
    expect(same.body.previous_start_date).toBe('')
    const other = await call(
      app,
      'events/12',
      json(
        'PATCH',
        { event_status: 'postponed', start_date: '2027-03-01 19:00', end_date: '2027-03-01 21:00' },
        as('admin'),
      ),
    )
    expect(other.body.previous_start_date).toBe('')
  })

  it('writes a reason sent in another language to that language’s file', async () => {
    const response = await call(
      app,
      'events/11?ml_language=ms',
      json('PATCH', { event_status_reason: 'Ribut besar.' }, as('admin')),
    )
    expect(response.status, response.text).toBe(200)
    expect(await read('harbour-picnic.ms.md')).toContain('event_status_reason: Ribut besar.')
    expect(await read('harbour-picnic.en.md')).toContain('event_status_reason: A storm is forecast.')
  })

  it('refuses bad values with the tree byte-identical', async () => {
    await expectRefused('PATCH', 'events/10', { event_status: 'gone' }, 'event_status')
    await expectRefused('PUT', 'events/10', { attendance_mode: 'virtual' }, 'attendance_mode')
    await expectRefused('PATCH', 'events/10', { online_url: 'vbscript:msgbox' }, 'online_url')
  })
})

describe('PATCH of an occurrence with a status', () => {
  it('cancels that occurrence alone, with a reason in each language', async () => {
    const id = choir('2026-12-08')
    const response = await call(
      app,
      `events/${id}`,
      json('PATCH', { event_status: 'cancelled', event_status_reason: 'The hall is closed.' }, as('admin')),
    )
    expect(response.status, response.text).toBe(200)
    expect(response.body).toMatchObject({ id, event_status: 'cancelled', event_status_reason: 'The hall is closed.' })
    expect(await read('weekly-choir.en.md')).toContain(
      [
        'overrides:',
        '  "2026-12-08":',
        '    event_status: cancelled',
        '    event_status_reason: The hall is closed.',
      ].join('\n'),
    )
    const malay = await call(
      app,
      `events/${id}?ml_language=ms`,
      json('PATCH', { event_status_reason: 'Dewan ditutup.' }, as('admin')),
    )
    expect(malay.status, malay.text).toBe(200)
    expect(await read('weekly-choir.ms.md')).toContain('event_status_reason: Dewan ditutup.')
    const query = 'events?post_parent=20&start_date=2026-01-01&per_page=50'
    const cancelled = await call(app, `${query}&event_status=cancelled&ml_language=ms`)
    expect(cancelled.body.events.map((e: Record<string, unknown>) => [e.id, e.event_status_reason])).toEqual([
      [id, 'Dewan ditutup.'],
    ])
    const others = await call(app, `${query}&event_status=scheduled`)
    expect(others.body.events).toHaveLength(3)
    const reloaded = await reloadApp(app.content)
    expect(reloaded.problems.filter((p) => p.severity !== 'warning')).toEqual([])
    expect((await call(reloaded, `events/${id}`)).body.json_ld.eventStatus).toBe('https://schema.org/EventCancelled')
  })

  it('reschedules one occurrence, recording where it used to start', async () => {
    const id = choir('2026-12-22')
    const moved = await call(
      app,
      `events/${id}`,
      json(
        'PATCH',
        { event_status: 'rescheduled', start_date: '2026-12-23 18:00:00', end_date: '2026-12-23 19:30:00' },
        as('admin'),
      ),
    )
    expect(moved.status, moved.text).toBe(200)
    expect(moved.body).toMatchObject({
      id,
      start_date: '2026-12-23 18:00:00',
      end_date: '2026-12-23 19:30:00',
      event_status: 'rescheduled',
      previous_start_date: '2026-12-22 18:00:00',
    })
    expect((await call(app, `events/${id}`)).body.json_ld.previousStartDate).toBe('2026-12-22T18:00:00+08:00')
    const forgotten = await call(app, `events/${id}`, json('PATCH', { previous_start_date: '' }, as('admin')))
    expect(forgotten.status, forgotten.text).toBe(200)
    expect(forgotten.body.previous_start_date).toBe('')
    const reloaded = await reloadApp(app.content)
    expect(reloaded.problems.filter((p) => p.severity !== 'warning')).toEqual([])
    expect((await call(reloaded, `events/${id}`)).body.json_ld).not.toHaveProperty('previousStartDate')
  })

  it('moves an occurrence online, then clears its address with empty text', async () => {
    const id = choir('2026-12-15')
    const online = await call(
      app,
      `events/${id}`,
      json('PATCH', { attendance_mode: 'online', online_url: 'https://stream.example.org/choir' }, as('admin')),
    )
    expect(online.body).toMatchObject({ attendance_mode: 'online', online_url: 'https://stream.example.org/choir' })
    const cleared = await call(app, `events/${id}`, json('PATCH', { online_url: '' }, as('admin')))
    expect(cleared.status, cleared.text).toBe(200)
    expect(cleared.body.online_url).toBe('')
  })

  it('refuses a bad status for an occurrence, leaving the series file as it was', async () => {
    await expectRefused('PATCH', `events/${choir('2026-12-08')}`, { event_status: 'off' }, 'event_status')
  })
})
