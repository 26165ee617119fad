import { describe, expect, it } from 'vitest'
import { occurrenceId } from '../../src/content/model/recurrence.ts'
import type { ContentRecord } from '../../src/content/store.ts'
import { watchContent } from '../../src/content/watch.ts'
import { call, SAMPLE_NOW } from '../helpers.ts'
import { allPages, file, seriesApp } from '../series/tree.ts'

// A series follows its file and the clock: an edit seen by the watcher changes its occurrences at
// once (no kept answer outlives it), and the horizon of open-ended rules moves with the months.

const weekly = (byday: string, extra: Record<string, unknown> = {}) =>
  file({
    id: 30,
    title: 'Weekly class',
    slug: 'weekly-class',
    start_date: '2026-09-01 09:00:00',
    end_date: '2026-09-01 10:00:00',
    timezone: 'Europe/London',
    recurrence: { rrule: `FREQ=WEEKLY;BYDAY=${byday}` },
    ...extra,
  })
const bounded = file({
  id: 40,
  title: 'Short course',
  slug: 'short-course',
  start_date: '2026-12-02 18:00:00',
  end_date: '2026-12-02 19:00:00',
  recurrence: { rrule: 'FREQ=WEEKLY;COUNT=8' },
})

/** Waits (bounded) until `done` holds: the watcher hands changes over asynchronously. */
async function until(done: () => boolean) {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 5))
  expect(done()).toBe(true)
}

describe('a series file edited under a running server', () => {
  it('changes its occurrences at once: lists, by id, by slug and recurrence.next, no kept answer left', async () => {
    const app = await seriesApp({ 'events/class.en.md': weekly('TU'), 'events/course.en.md': bounded })
    const watch = watchContent(
      app.store,
      () => {},
      (listener) => app.driver.watch(listener),
    )
    try {
      await watch.ready
      const tuesday = occurrenceId(30, '2026-11-24 09:00:00')
      const paths = [
        'events?post_parent=30',
        `events/${tuesday}`,
        'events/30',
        'events/by-slug/weekly-class-2026-11-24',
      ]
      for (const path of paths) {
        expect((await call(app, path)).status, path).toBe(200)
        expect((await call(app, path)).status, path).toBe(200)
      }
      const version = app.store.version
      await app.driver.write('events/class.en.md', weekly('WE', { title: 'Wednesday class' }))
      await until(() => app.store.version !== version)
      const list = await call(app, 'events?post_parent=30')
      expect(list.body.events[0]).toMatchObject({
        id: occurrenceId(30, '2026-11-25 09:00:00'),
        title: 'Wednesday class',
      })
      expect(
        list.body.events.every(
          (event: { start_date: string }) => new Date(`${event.start_date.slice(0, 10)}Z`).getUTCDay() === 3,
        ),
      ).toBe(true)
      expect((await call(app, `events/${tuesday}`)).status).toBe(404)
      expect((await call(app, 'events/by-slug/weekly-class-2026-11-24')).status).toBeGreaterThanOrEqual(400)
      expect((await call(app, 'events/30')).body.recurrence.next[0].id).toBe(occurrenceId(30, '2026-11-25 09:00:00'))
      const all = await allPages(app, 'start_date=2026-11-01&end_date=2026-12-31', 50)
      expect(all.filter((event) => event.title === 'Weekly class')).toEqual([])
    } finally {
      await watch.close()
    }
  })

  it('a series file removed takes every occurrence with it; a recurrence removed leaves a single event', async () => {
    const app = await seriesApp({ 'events/class.en.md': weekly('TU'), 'events/course.en.md': bounded })
    const course = occurrenceId(40, '2026-12-09 18:00:00')
    expect((await call(app, `events/${course}`)).status).toBe(200)
    await app.driver.remove('events/course.en.md')
    await app.store.reload(['events/course.en.md'])
    expect((await call(app, `events/${course}`)).status).toBe(404)
    expect(await allPages(app, 'post_parent=30&start_date=2027-01-01&end_date=2027-01-31', 50)).toHaveLength(4)
    await app.driver.write('events/class.en.md', weekly('TU').replace(/recurrence:\n.*\n/, ''))
    await app.store.reload(['events/class.en.md'])
    expect(app.store.occurrencesOf(app.store.get('events', 30)!)).toEqual([])
    const listed = await allPages(app, 'start_date=2026-01-01&end_date=2030-01-01', 50)
    expect(listed.map((event) => event.id)).toEqual([30])
  })
})

describe('the horizon of open-ended rules', () => {
  it('moves with the clock past a month boundary: new occurrences served, the version bumped, bounded rules untouched', async () => {
    let now = SAMPLE_NOW
    const app = await seriesApp(
      { 'events/class.en.md': weekly('TU'), 'events/course.en.md': bounded },
      { clock: () => now },
    )
    const late = 'post_parent=30&start_date=2028-12-01&end_date=2029-03-31'
    const before = await allPages(app, late, 50)
    expect(before.at(-1).start_date).toBe('2028-12-26 09:00:00')
    const courseBefore = (await call(app, 'events?post_parent=40&start_date=2026-11-01&end_date=2027-12-31')).text
    const changed: ContentRecord[] = []
    app.store.onChange((was, is) => changed.push((is ?? was)!))

    now = Date.parse('2026-11-30T23:59:00Z')
    const version = app.store.version
    expect(await app.store.moveHorizon()).toBe(false)
    expect(app.store.version).toBe(version)

    now = Date.parse('2026-12-01T00:00:30Z')
    expect(await app.store.moveHorizon()).toBe(true)
    expect(app.store.version).toBeGreaterThan(version)
    const after = await allPages(app, late, 50)
    expect(after.map((event) => event.start_date.slice(0, 10))).toEqual([
      ...before.map((event) => event.start_date.slice(0, 10)),
      '2029-01-02',
      '2029-01-09',
      '2029-01-16',
      '2029-01-23',
      '2029-01-30',
    ])
    expect((await call(app, 'events?post_parent=40&start_date=2026-11-01&end_date=2027-12-31')).text).toBe(courseBefore)
    expect(changed.filter((record) => record.series?.parent.id === 40 || record.id === 40)).toEqual([])
  })
})

describe('the problems of a series when the horizon moves', () => {
  it('are told anew: an override the horizon now reaches is no longer "unused", the horizon named is the new one', async () => {
    let now = SAMPLE_NOW
    const app = await seriesApp(
      { 'events/class.en.md': weekly('TU', { overrides: { '2029-01-16': { title: 'Far ahead' } } }) },
      { clock: () => now },
    )
    const messages = () => app.store.problems().map((problem) => problem.message)
    expect(messages()).toContain('overrides: 2029-01-16 changes no occurrence')
    now = Date.parse('2026-12-01T00:00:30Z')
    expect(await app.store.moveHorizon()).toBe(true)
    expect((await call(app, `events/${occurrenceId(30, '2029-01-16 09:00:00')}`)).body.title).toBe('Far ahead')
    expect(messages().filter((message) => message.includes('2029-01-16'))).toEqual([])
    expect(messages().filter((message) => message.includes('open-ended'))).toEqual([
      'recurrence.rrule: open-ended; occurrences are served up to 2029-02-01, and further as time goes on',
    ])
  })
})
