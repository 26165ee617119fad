import { rm } from 'node:fs/promises'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { occurrenceId, splitOccurrenceId } from '../../src/content/model/recurrence.ts'
import { as, call, json, type Login, writableApp } from '../helpers.ts'
import { snapshot } from '../routes/writes-tree.ts'

// Series writes whose occurrences' ids would leave their series' span of 10^9 minutes (docs/recurrence.md,
// "Ids"). The reviewer's case: an editor's series from 9999-12-30 in Kiritimati and an author's from
// 2394-09-12 15:20 UTC both had an occurrence 1010223369400. The first is now refused, with the tree untouched.

let app: Awaited<ReturnType<typeof writableApp>>
beforeEach(async () => {
  app = await writableApp('series')
})
afterEach(async () => {
  await rm(app.dir, { recursive: true, force: true })
})

async function refused(body: Record<string, unknown>, login: Login) {
  const before = await snapshot(app.content)
  const response = await call(app, 'events', json('POST', { title: 'Far', ...body }, as(login)))
  expect(response.status, response.text).toBe(400)
  expect(response.body.code).toBe('rest_invalid_param')
  expect(await snapshot(app.content)).toEqual(before)
  return response.body.data.params as Record<string, string>
}

describe('a series write past the span of occurrence ids', () => {
  it("refuses the editor's series from 9999, and the author's from 2394 keeps ids of its own", async () => {
    const far = { start_date: '9999-12-30 10:00:00', end_date: '9999-12-30 11:00:00', timezone: 'Pacific/Kiritimati' }
    const params = await refused({ ...far, recurrence: 'FREQ=DAILY' }, 'editor')
    expect(params).toEqual({
      start_date:
        'start_date: a series starts before 3871-04-29 10:40 (an occurrence\'s id counts the minutes from 1970 to its start, below 10^9); this one starts "9999-12-30 10:00:00"',
    })
    const body = {
      title: 'Late',
      start_date: '2394-09-12 15:20:00',
      end_date: '2394-09-12 16:20:00',
      timezone: 'UTC',
      recurrence: 'FREQ=DAILY;COUNT=2',
    }
    const created = await call(app, 'events', json('POST', body, as('author')))
    expect(created.status, created.text).toBe(201)
    const id = occurrenceId(created.body.id, '2394-09-12 15:20:00')
    expect(splitOccurrenceId(id)).toEqual({ series: created.body.id, start: '2394-09-12 15:20:00' })
    const first = await call(app, `events/${id}`, { headers: as('author') })
    expect(first.status, first.text).toBe(200)
    expect(first.body).toMatchObject({ id, series: { id: created.body.id }, start_date: '2394-09-12 15:20:00' })
  })

  it('a plain event may start in 9999: only a series counts minutes', async () => {
    const body = { title: 'Far', start_date: '9999-12-29 10:00:00', end_date: '9999-12-29 11:00:00', timezone: 'UTC' }
    const created = await call(app, 'events', json('POST', body, as('editor')))
    expect(created.status, created.text).toBe(201)
    const made = await call(app, `events/${created.body.id}`, json('PATCH', { recurrence: 'FREQ=DAILY' }, as('editor')))
    expect(made.status, made.text).toBe(400)
    expect(Object.keys(made.body.data.params)).toEqual(['start_date'])
  })

  it('refuses an rdate past the span, naming recurrence', async () => {
    const body = {
      start_date: '2027-01-04 19:00:00',
      end_date: '2027-01-04 21:00:00',
      recurrence: { rrule: 'FREQ=WEEKLY;COUNT=2', rdate: ['5000-01-01 19:00:00'] },
    }
    expect(await refused(body, 'admin')).toEqual({
      recurrence:
        'recurrence.rdate: "5000-01-01 19:00:00" is not before 3871-04-29 10:40 (an occurrence\'s id counts the minutes from 1970 to its start, below 10^9)',
    })
  })
})
