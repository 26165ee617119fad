import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { occurrenceId } from '../../src/content/model/recurrence.ts'
import { SAMPLE_NOW } from '../helpers.ts'
import { file, seriesApp } from '../series/tree.ts'

// The answers the Node handler keeps never outlive a series' change or the day its `next` was for.

const weekly = (title: string) =>
  file({
    id: 30,
    title,
    slug: 'weekly-class',
    date: '2026-08-01 09:00:00',
    start_date: '2026-09-01 09:00:00',
    end_date: '2026-09-01 10:00:00',
    timezone: 'Europe/London',
    recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=TU' },
  })

let server: Server | undefined
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())))

async function served(handler: Parameters<typeof createServer>[1]) {
  server = createServer(handler)
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/wp-json/calendar/events/v1/`
  return async (path: string) => (await (await fetch(base + path)).json()) as any
}

describe('kept answers of series', () => {
  it('a series answer lists its next occurrences from the day asked, not the day it was kept', async () => {
    let now = SAMPLE_NOW
    const app = await seriesApp({ 'events/class.en.md': weekly('Class') }, { clock: () => now })
    const get = await served(app.node)
    for (let i = 0; i < 3; i++)
      expect((await get('events/30')).recurrence.next[0].id).toBe(occurrenceId(30, '2026-11-24 09:00:00'))
    for (let i = 0; i < 3; i++)
      expect((await get('events?post_parent=30')).events[0].start_date).toBe('2026-11-24 09:00:00')
    now = Date.parse('2026-11-27T08:00:00Z')
    expect((await get('events/30')).recurrence.next[0].id).toBe(occurrenceId(30, '2026-12-01 09:00:00'))
    expect((await get('events?post_parent=30')).events[0].start_date).toBe('2026-12-01 09:00:00')
    expect(app.answers!.hits).toBeGreaterThan(0)
  })

  it('an edit of the series file drops every kept answer of it and its occurrences', async () => {
    const app = await seriesApp({ 'events/class.en.md': weekly('Class') })
    const get = await served(app.node)
    const one = occurrenceId(30, '2026-12-01 09:00:00')
    for (let i = 0; i < 2; i++) {
      expect((await get(`events/${one}`)).title).toBe('Class')
      expect((await get('events?post_parent=30')).events[0].title).toBe('Class')
      expect((await get('events/by-slug/weekly-class-2026-12-01')).title).toBe('Class')
    }
    await app.driver.write('events/class.en.md', weekly('Renamed class'))
    await app.store.reload(['events/class.en.md'])
    expect((await get(`events/${one}`)).title).toBe('Renamed class')
    expect((await get('events?post_parent=30')).events[0].title).toBe('Renamed class')
    expect((await get('events/by-slug/weekly-class-2026-12-01')).title).toBe('Renamed class')
  })
})
