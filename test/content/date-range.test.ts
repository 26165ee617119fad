import { rm } from 'node:fs/promises'
import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { checkContent } from '../../src/content/check.ts'
import { createMemoryDriver } from '../../src/content/store/memory-driver.ts'
import { occurrenceId } from '../../src/content/model/recurrence.ts'
import { DATE_RANGE, isInDateRange } from '../../src/time/parse.ts'
import { instantToWall, wallToInstant } from '../../src/time/zone.ts'
import { as, call, json, SAMPLE_NOW, writableApp } from '../helpers.ts'
import { snapshot } from '../routes/writes-tree.ts'
import { file, seriesApp } from '../series/tree.ts'

// An event's start and end must be instants every time zone writes with a four-digit year: the range date
// arguments take (src/time/parse.ts), 0000-01-02 to 9999-12-30 in UTC. A file outside it is an error (its record
// is not served); a write that would make one is 400. The reviewer's case: 9999-12-31 22:00 in Etc/GMT+12 was
// served as "utc_start_date":"+010000-01 01T10:00".
const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)

const event = (id: number, start: string, end: string, more: Record<string, unknown> = {}) =>
  file({ id, title: `Event ${id}`, slug: `event-${id}`, start_date: start, end_date: end, ...more })
const WHY =
  'falls outside 0000-01-02 to 9999-12-30 in UTC (a day inside the years 0000–9999, so that every time zone can write it)'
const told = (app: Awaited<ReturnType<typeof seriesApp>>, path: string) =>
  app.problems.filter((problem) => problem.path === path).map((problem) => problem.message)
const WALL = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/

describe('an event file whose instant leaves the years 0000–9999', () => {
  it('is an error when its previous start does, which JSON-LD would show as a malformed date', async () => {
    const moved = {
      timezone: 'Asia/Singapore',
      event_status: 'rescheduled',
      previous_start_date: '0000-01-01 00:00:00',
    }
    const app = await seriesApp({ 'events/moved.en.md': event(4, '2027-01-01 10:00:00', '2027-01-01 11:00:00', moved) })
    expect(told(app, 'events/moved.en.md')).toEqual([
      `previous_start_date: "0000-01-01 00:00:00" in Asia/Singapore ${WHY}`,
    ])
    expect((await call(app, 'events/4')).status).toBe(404)
  })

  it("is an error and not served: the reviewer's 9999-12-31 in Etc/GMT+12, and 0000-01-01 in Tokyo", async () => {
    const files = {
      'events/late.en.md': event(1, '9999-12-31 22:00:00', '9999-12-31 23:59:59', { timezone: 'Etc/GMT+12' }),
      'events/early.en.md': event(2, '0000-01-01 05:00:00', '0000-01-01 06:00:00', { timezone: 'Asia/Tokyo' }),
      'events/edges.en.md': event(3, '0000-01-02 00:00:00', '9999-12-30 23:59:59', { timezone: 'UTC' }),
    }
    const app = await seriesApp(files)
    expect(told(app, 'events/late.en.md')).toEqual([
      `start_date: "9999-12-31 22:00:00" in Etc/GMT+12 ${WHY}`,
      `end_date: "9999-12-31 23:59:59" in Etc/GMT+12 ${WHY}`,
    ])
    expect(told(app, 'events/early.en.md')).toEqual([
      `start_date: "0000-01-01 05:00:00" in Asia/Tokyo ${WHY}`,
      `end_date: "0000-01-01 06:00:00" in Asia/Tokyo ${WHY}`,
    ])
    for (const id of [1, 2]) expect((await call(app, `events/${id}`)).status).toBe(404)
    const edges = await call(app, 'events/3')
    expect(edges.status).toBe(200)
    expect(edges.body).toMatchObject({ utc_start_date: '0000-01-02 00:00:00', utc_end_date: '9999-12-30 23:59:59' })
    expect(edges.body.utc_end_date_details).toMatchObject({ year: '9999', month: '12', day: '30' })
    const { problems } = await checkContent(createMemoryDriver(files), false, 'UTC', () => SAMPLE_NOW)
    const late = problems.filter((problem) => problem.path === 'events/late.en.md' && problem.severity !== 'warning')
    expect(late.map((problem) => [problem.line, problem.message.slice(0, 40)])).toEqual([
      [5, 'start_date: "9999-12-31 22:00:00" in Etc'],
      [6, 'end_date: "9999-12-31 23:59:59" in Etc/G'],
    ])
  })

  it("reads an event without a zone in the site's zone, and an all-day event over its whole days", async () => {
    const files = {
      'events/zoneless.en.md': event(1, '9999-12-30 13:00:00', '9999-12-30 14:00:00'),
      'events/all-day.en.md': event(2, '9999-12-30 13:00:00', '9999-12-30 14:00:00', {
        timezone: 'Etc/GMT+1',
        all_day: true,
      }),
    }
    const utc = await seriesApp(files)
    expect(told(utc, 'events/zoneless.en.md')).toEqual([])
    expect(told(utc, 'events/all-day.en.md')).toEqual([`end_date: "9999-12-30 23:59:59" in Etc/GMT+1 ${WHY}`])
    const behind = await seriesApp(files, { timezone: 'Etc/GMT+12' })
    expect(told(behind, 'events/zoneless.en.md')).toEqual([
      `start_date: "9999-12-30 13:00:00" in Etc/GMT+12 ${WHY}`,
      `end_date: "9999-12-30 14:00:00" in Etc/GMT+12 ${WHY}`,
    ])
  })

  it("refuses a series' override moved outside, and occurrences so long the latest would end outside", async () => {
    const recurrence = { rrule: 'FREQ=WEEKLY;COUNT=3' }
    const start = { timezone: 'UTC', recurrence }
    const app = await seriesApp({
      'events/moved.en.md': event(1, '2026-12-01 09:00:00', '2026-12-01 10:00:00', {
        ...start,
        overrides: { '2026-12-08': { start_date: '9999-12-30 23:30:00' } },
      }),
      'events/long.en.md': event(2, '2026-12-01 09:00:00', '9000-01-01 10:00:00', start),
      'events/fine.en.md': event(3, '2026-12-01 09:00:00', '7000-01-01 10:00:00', start),
    })
    // A moved start alone keeps the series' hour: the occurrence would end at 10000-01-01 00:30.
    expect(told(app, 'events/moved.en.md')).toEqual([
      `overrides: 2026-12-08: end_date "9999-12-31 00:30:00" in UTC ${WHY}`,
    ])
    expect(told(app, 'events/long.en.md')).toEqual([
      "end_date: a series' occurrences are too long: one starting as late as 3871-04-29 10:40 would end after 9999-12-30 (UTC)",
    ])
    expect(told(app, 'events/fine.en.md')).toEqual([])
    expect((await call(app, `events/${occurrenceId(3, '2026-12-15 09:00:00')}`)).body.utc_end_date).toBe(
      '7000-01-15 10:00:00',
    )
  })
})

describe('an event write whose instant would leave the years 0000–9999', () => {
  let app: Awaited<ReturnType<typeof writableApp>>
  beforeEach(async () => {
    app = await writableApp('series')
  })
  afterEach(async () => {
    await rm(app.dir, { recursive: true, force: true })
  })

  async function refused(path: string, method: string, body: Record<string, unknown>) {
    const before = await snapshot(app.content)
    const response = await call(app, path, json(method, body, as('admin')))
    expect(response.status, response.text).toBe(400)
    expect(response.body.code).toBe('rest_invalid_param')
    expect(await snapshot(app.content)).toEqual(before)
    return response.body.data.params as Record<string, string>
  }

  it('is 400, not 500, when a date the site zone takes is outside in the event zone', async () => {
    const body = { title: 'Late', start_date: '9999-12-30 23:00:00', end_date: '9999-12-30 23:30:00' }
    expect(await refused('events', 'POST', { ...body, timezone: 'Etc/GMT+12' })).toEqual({
      start_date: `start_date: "9999-12-30 23:00:00" in Etc/GMT+12 ${WHY}`,
    })
    const moved = { previous_start_date: '9999-12-30 23:00:00', timezone: 'Etc/GMT+12' }
    expect(Object.keys(await refused('events/20', 'PATCH', moved))).toEqual(['previous_start_date'])
  })

  it("is 400 naming both dates when a new zone or all_day moves the event's instants outside", async () => {
    const body = { title: 'Late', start_date: '9999-12-30 13:00:00', end_date: '9999-12-30 14:00:00', timezone: 'UTC' }
    const created = await call(app, 'events', json('POST', body, as('admin')))
    expect(created.status, created.text).toBe(201)
    expect(created.body.utc_start_date).toBe('9999-12-30 13:00:00')
    expect(await refused(`events/${created.body.id}`, 'PATCH', { timezone: 'Etc/GMT+12' })).toEqual({
      start_date: `start_date: "9999-12-30 13:00:00" in Etc/GMT+12 ${WHY}`,
      end_date: `end_date: "9999-12-30 14:00:00" in Etc/GMT+12 ${WHY}`,
    })
    const allDay = await refused(`events/${created.body.id}`, 'PATCH', { timezone: 'Etc/GMT+1', all_day: true })
    expect(allDay).toEqual({ end_date: `end_date: "9999-12-30 23:59:59" in Etc/GMT+1 ${WHY}` })
  })

  it("is 400 for an occurrence moved outside; the series' file is left as it was", async () => {
    const occurrence = occurrenceId(40, '2026-12-05 18:00:00')
    const params = await refused(`events/${occurrence}`, 'PATCH', { start_date: '0000-01-02 05:00:00' })
    expect(params).toEqual({ start_date: `start_date: "0000-01-02 05:00:00" in Asia/Kuala_Lumpur ${WHY}` })
  })
})

describe('any date of any year in any zone', () => {
  const ZONES = ['UTC', 'Etc/GMT+12', 'Etc/GMT-14', 'Pacific/Kiritimati', 'America/New_York', 'Asia/Tokyo']
  const minute = fc.integer({ min: 0, max: 60 * 24 * 3 })
  // Years 0000 and 9999 whole, by the minute; their edges are where instants leave the range.
  const wall = fc.oneof(
    fc.date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:00Z'), noInvalidDate: true }),
    minute.map((m) => new Date(wallToInstant('0000-01-01 00:00:00', 'UTC') + m * 60_000)),
    minute.map((m) => new Date(wallToInstant('9999-12-29 00:00:00', 'UTC') + m * 60_000)),
  )
  const one = fc.record({ start: wall, length: fc.integer({ min: 0, max: 600 }), zone: fc.constantFrom(...ZONES) })

  it('is served with well-formed UTC dates, or refused as outside the range: never served malformed', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(one, { minLength: 1, maxLength: 6 }),
        fc.constantFrom(...ZONES),
        async (events, site) => {
          const files: Record<string, string> = {}
          const walls = events.map(({ start, length }) => {
            // Past 9999 a date is no wall clock at all (the schema refuses it): the last minute of 9999 stands in.
            const written = (ms: number) => instantToWall(ms, 'UTC')
            const from = written(start.getTime())
            const to = written(start.getTime() + length * 60_000)
            return [WALL.test(from) ? from : '9999-12-31 23:59:00', WALL.test(to) ? to : '9999-12-31 23:59:59']
          })
          events.forEach(({ zone }, i) => {
            const [from, to] = walls[i]!
            // Half the events name no zone: they are read in the site's.
            files[`events/e${i}.en.md`] = event(i + 1, from!, to!, i % 2 ? { timezone: zone } : {})
          })
          const app = await seriesApp(files, { timezone: site })
          for (const [i, { zone }] of events.entries()) {
            const [from, to] = walls[i]!
            const inRange = [from!, to!].every(
              (w) => WALL.test(w) && isInDateRange(wallToInstant(w, i % 2 ? zone : site)),
            )
            const answer = await call(app, `events/${i + 1}`)
            if (!inRange) {
              expect(answer.status).toBe(404)
              expect(told(app, `events/e${i}.en.md`).join('\n')).toContain(WHY)
              continue
            }
            expect(answer.status, answer.text).toBe(200)
            for (const field of ['utc_start_date', 'utc_end_date', 'start_date', 'end_date'])
              expect(answer.body[field]).toMatch(WALL)
            expect(answer.body.utc_start_date_details.year).toMatch(/^\d{4}$/)
          }
        },
      ),
      { numRuns: 60, seed },
    )
  })

  it('keeps the range a day inside the years 0000–9999', () => {
    expect(instantToWall(DATE_RANGE.earliest, 'UTC')).toBe('0000-01-02 00:00:00')
    expect(instantToWall(DATE_RANGE.latest, 'UTC')).toBe('9999-12-30 23:59:59')
  })
})
