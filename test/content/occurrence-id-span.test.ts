import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { checkContent } from '../../src/content/check.ts'
import { expand, OCCURRENCE_STARTS, occurrenceId, SERIES_LIMITS } from '../../src/content/model/recurrence.ts'
import { buildSite } from '../../src/prerender/site-builder.ts'
import { as, buildOptions, call, json, SAMPLE_NOW, writableApp } from '../helpers.ts'
import { reloadApp, snapshot } from '../routes/writes-tree.ts'
import { file } from '../series/tree.ts'

// Occurrence ids are `series id × 10^9 + minutes since 1970`, so the minutes must stay below 10^9
// (docs/recurrence.md, "Ids"): a series whose first start (served however far past the horizon) or an
// rdate is at 3871-04-29 10:40 or later is an error of its file, never an occurrence that takes the id of
// another series' occurrence. The reviewer's case: a hostile series 299 from 3928-04-03 03:40 gave
// 299 × 10^9 + 1,029,941,500, the id of series 300's market of 2026-12-05 17:00.

const DEMO_MARKET = resolve(import.meta.dirname, '../../content/events/first-saturday-night-market.en.md')
const TARGET = 300_029_941_500
const hostile = (more: Record<string, unknown> = {}) =>
  file({
    id: 299,
    title: 'Hostile',
    slug: 'zzz-hostile',
    start_date: '3928-04-03 03:40:00',
    end_date: '3928-04-03 04:40:00',
    timezone: 'UTC',
    recurrence: { rrule: 'FREQ=DAILY;COUNT=2' },
    ...more,
  })

let app: Awaited<ReturnType<typeof writableApp>>
beforeEach(async () => {
  app = await writableApp('series')
  const market = (await readFile(DEMO_MARKET, 'utf8'))
    .replace(/^id: 153$/m, 'id: 300')
    .replace(/^slug: .*$/m, 'slug: target-market')
  await writeFile(join(app.content, 'events/target-market.en.md'), market)
  await writeFile(join(app.content, 'events/zzz-hostile.en.md'), hostile())
})
afterEach(async () => {
  await rm(app.dir, { recursive: true, force: true })
})

const problemsOf = (problems: { path: string; message: string }[], path: string) =>
  problems.filter((problem) => problem.path === path).map((problem) => problem.message)

describe('a series whose occurrences would count 10^9 minutes or more', () => {
  it('is the two ids the reviewer found, before the fix', () => {
    expect(occurrenceId(299, '3928-04-03 03:40:00')).toBe(TARGET)
    expect(occurrenceId(300, '2026-12-05 17:00:00')).toBe(TARGET)
  })

  it('is an error of its file and serves nothing; the id answers the other series', async () => {
    const fresh = await reloadApp(app.content, app.dir)
    expect(problemsOf(fresh.problems, 'events/zzz-hostile.en.md')).toEqual([
      'start_date: a series starts before 3871-04-29 10:40 (an occurrence\'s id counts the minutes from 1970 to its start, below 10^9); this one starts "3928-04-03 03:40:00"',
    ])
    expect((await call(fresh, 'events/299')).status).toBe(404)
    const answer = await call(fresh, `events/${TARGET}`)
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({ id: TARGET, start_date: '2026-12-05 17:00:00', series: { id: 300 } })
    expect(fresh.store.events().filter((record) => record.series?.parent.id === 299)).toEqual([])
  })

  it('is told by almanac check as an error', async () => {
    const { problems } = await checkContent(app.content, false, 'UTC', () => SAMPLE_NOW)
    const told = problems.filter((problem) => problem.path === 'events/zzz-hostile.en.md')
    expect(told).toHaveLength(1)
    expect(told[0]).toMatchObject({ severity: 'error', line: 5 })
    expect(told[0]!.message).toMatch(/^start_date: a series starts before 3871-04-29 10:40/)
  })

  it("leaves the other series' occurrence in the static build, by id and by slug", async () => {
    const fresh = await reloadApp(app.content, app.dir)
    const out = await mkdtemp(join(tmpdir(), 'almanac-id-span-'))
    try {
      await buildSite(buildOptions(fresh.store, out))
      const api = join(out, 'wp-json/calendar/events/v1/events')
      for (const path of [`${TARGET}.json`, 'by-slug/target-market-2026-12-05.json'])
        expect(JSON.parse(await readFile(join(api, path), 'utf8'))).toMatchObject({ id: TARGET, series: { id: 300 } })
    } finally {
      await rm(out, { recursive: true, force: true })
    }
  })

  it("takes an administrator's PATCH of the id into the other series' file, not the hostile one", async () => {
    const fresh = await reloadApp(app.content, app.dir)
    const before = await readFile(join(app.content, 'events/zzz-hostile.en.md'), 'utf8')
    const response = await call(fresh, `events/${TARGET}`, json('PATCH', { title: 'Indoors' }, as('admin')))
    expect(response.status, response.text).toBe(200)
    expect(response.body).toMatchObject({ id: TARGET, title: 'Indoors', series: { id: 300 } })
    expect(await readFile(join(app.content, 'events/target-market.en.md'), 'utf8')).toMatch(
      /\n {2}"2026-12-05":\n {4}title: Indoors\n/,
    )
    expect(await readFile(join(app.content, 'events/zzz-hostile.en.md'), 'utf8')).toBe(before)
  })

  it('refuses an rdate at or past 3871-04-29 10:40, and takes the minute before it', async () => {
    const recurrence = (rdate: string) => ({ rrule: 'FREQ=DAILY;COUNT=2', rdate: [rdate] })
    const start = { start_date: '2026-12-01 09:00:00', end_date: '2026-12-01 10:00:00' }
    await writeFile(
      join(app.content, 'events/zzz-hostile.en.md'),
      hostile({ ...start, recurrence: recurrence('3871-04-29') }),
    )
    await writeFile(
      join(app.content, 'events/last-minute.en.md'),
      hostile({ id: 298, slug: 'last-minute', ...start, recurrence: recurrence('3871-04-29 10:39:00') }),
    )
    const fresh = await reloadApp(app.content, app.dir)
    // A bare date takes the first start's time, 09:00: before the end, so taken (and served once the horizon is there).
    expect(problemsOf(fresh.problems, 'events/zzz-hostile.en.md')).toEqual([])
    await writeFile(
      join(app.content, 'events/zzz-hostile.en.md'),
      hostile({ ...start, recurrence: recurrence('3871-04-29 10:40:00') }),
    )
    const again = await reloadApp(app.content, app.dir)
    expect(problemsOf(again.problems, 'events/zzz-hostile.en.md')).toEqual([
      'recurrence.rdate: "3871-04-29 10:40:00" is not before 3871-04-29 10:40 (an occurrence\'s id counts the minutes from 1970 to its start, below 10^9)',
    ])
    expect(problemsOf(again.problems, 'events/last-minute.en.md')).toEqual([])
    expect((await call(again, 'events/298')).status).toBe(200)
  })
})

describe('the span of original starts', () => {
  it('ends where the minutes reach 10^9', () => {
    expect(OCCURRENCE_STARTS).toEqual({ first: '1970-01-01 00:00:00', end: '3871-04-29 10:40:00' })
    expect(occurrenceId(1, '3871-04-29 10:39:00')).toBe(2 * SERIES_LIMITS.base - 1)
    expect(occurrenceId(1, OCCURRENCE_STARTS.first)).toBe(SERIES_LIMITS.base)
  })

  it('leaves out of an expansion every start outside it, the first too, however far the horizon is', () => {
    const rule = { rrule: 'FREQ=MINUTELY;COUNT=3', rdate: ['3871-04-29 10:45:00'], exdate: [] }
    expect(expand(rule, '3871-04-29 10:38:00', 'UTC', '9999-12-31 00:00:00').starts).toEqual([
      '3871-04-29 10:38:00',
      '3871-04-29 10:39:00',
    ])
    expect(expand(rule, '3928-04-03 03:40:00', 'UTC', '2029-01-01 00:00:00').starts).toEqual([])
    expect(expand(rule, '1969-12-31 23:59:00', 'UTC', '2029-01-01 00:00:00').starts).toEqual([
      '1970-01-01 00:00:00',
      '1970-01-01 00:01:00',
    ])
  })
})

describe('writes that would make such a series', () => {
  it('a PATCH moving a series past the span is 400 naming start_date, and the tree is left as it was', async () => {
    const before = await snapshot(app.content)
    const body = { start_date: '4000-01-04 09:00:00', end_date: '4000-01-04 10:00:00' }
    const response = await call(app, 'events/40', json('PATCH', body, as('admin')))
    expect(response.status, response.text).toBe(400)
    expect(response.body.code).toBe('rest_invalid_param')
    expect(Object.keys(response.body.data.params)).toEqual(['start_date'])
    expect(response.body.data.params.start_date).toMatch(/^start_date: a series starts before 3871-04-29 10:40/)
    expect(await snapshot(app.content)).toEqual(before)
  })
})
