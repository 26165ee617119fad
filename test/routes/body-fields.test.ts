import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { as, call, writableApp } from '../helpers.ts'

let app: Awaited<ReturnType<typeof writableApp>>
beforeAll(async () => {
  app = await writableApp('reference')
})
afterAll(async () => {
  await rm(app.dir, { recursive: true, force: true })
})

const EVENT = { title: 'Fields', start_date: '2026-12-20 18:00:00', end_date: '2026-12-20 20:00:00' }
const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { ...as('admin'), 'Content-Type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
})
const json = (fields: Record<string, unknown>) => ({
  method: 'POST',
  headers: { ...as('admin'), 'Content-Type': 'application/json' },
  body: JSON.stringify(fields),
})
const padding = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`unused${i}`, 'x']))

describe('a body names at most 1,000 fields, as PHP allows WordPress', () => {
  it('takes a form or a JSON object of 1,000 fields', async () => {
    expect((await call(app, 'events', form({ ...EVENT, ...padding(997) }))).status).toBe(201)
    expect((await call(app, 'events', json({ ...EVENT, ...padding(997) }))).status).toBe(201)
  })

  it('refuses one more with 400 rest_too_many_fields, before reading any of them', async () => {
    for (const request of [form({ ...EVENT, ...padding(998) }), json({ ...EVENT, ...padding(998) })]) {
      const answer = await call(app, 'events', request)
      expect(answer.status).toBe(400)
      expect(answer.body).toEqual({
        code: 'rest_too_many_fields',
        message: 'The request body has more than 1,000 fields.',
        data: { status: 400 },
      })
    }
  })
})

describe('an event write names at most 100 categories, tags or organizers', () => {
  it('refuses 101 new category names with 400 naming categories, and writes nothing', async () => {
    const names = Array.from({ length: 101 }, (_, i) => `Many ${i}`)
    const answer = await call(app, 'events', { ...json({ ...EVENT, categories: names }) })
    expect(answer.status).toBe(400)
    expect(answer.body.data.params).toHaveProperty('categories')
    const listed = await call(app, 'categories?search=Many&hide_empty=false', { headers: as('admin') })
    expect(listed.body.categories).toEqual([])
  })

  it('takes 100 of them', async () => {
    const names = Array.from({ length: 100 }, (_, i) => `Some ${i}`)
    const answer = await call(app, 'events', { ...json({ ...EVENT, categories: names }) })
    expect(answer.status).toBe(201)
    expect(answer.body.categories).toHaveLength(100)
  })
})
