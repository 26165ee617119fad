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
  it('loads without a single problem', async () => {
    const problems: Problem[] = []
    const store = await createStore(resolve(import.meta.dirname, '../../content'), {
      defaultLanguage: 'en',
      fallback: true,
      onProblem: (problem) => problems.push(problem),
    })
    expect(problems).toEqual([])
    expect(store.list('events').length).toBeGreaterThanOrEqual(40)
    expect(store.list('venues').length).toBeGreaterThanOrEqual(8)
    expect(store.list('organizers').length).toBeGreaterThanOrEqual(6)
    const translated = store.list('events').filter((record) => record.files.size === 4)
    expect(translated.length).toBeGreaterThanOrEqual(store.list('events').length / 3)
  })
})
