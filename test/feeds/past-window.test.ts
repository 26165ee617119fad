import { describe, expect, it } from 'vitest'
import { call } from '../helpers.ts'
import { file, seriesApp } from '../series/tree.ts'

// docs/feeds.md §1: without a start, a feed holds the events that end after midnight (UTC) 30 days ago. The cut was
// handed to the list as `ends_after=<that date>`, which the list reads in the site's zone to the end of that day
// (found by a review): the feed reached back 29 days by the site's clock, and `strict_dates` moved it by a day.
const NOW = Date.parse('2026-11-22T02:08:30Z') // 30 days before today (UTC) began at 2026-10-23 00:00Z
const ended = (id: number, end: string) =>
  file({
    id,
    title: `Ended ${end}`,
    slug: `e${id}`,
    date: '2026-01-01 00:00:00',
    start_date: '2026-10-20 10:00:00',
    end_date: end,
    timezone: 'UTC',
  })
const files = {
  'events/a.en.md': ended(1, '2026-10-22 23:59:00'),
  'events/b.en.md': ended(2, '2026-10-23 00:01:00'),
  'events/c.en.md': ended(3, '2026-10-23 12:00:00'),
}

describe('the recent past of a feed that names no start', () => {
  it.each(['UTC', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Asia/Singapore'])(
    'is cut at midnight UTC 30 days ago, to the minute, in a site whose zone is %s, strict_dates or not',
    async (timezone) => {
      const app = await seriesApp(files, { now: NOW, timezone })
      for (const query of ['', '?strict_dates=1', '?strict_dates=0']) {
        const feed = (await call(app, `events.ics${query}`)).text
        expect(feed).not.toContain('SUMMARY:Ended 2026-10-22 23:59:00')
        expect(feed).toContain('SUMMARY:Ended 2026-10-23 00:01:00')
        expect(feed).toContain('SUMMARY:Ended 2026-10-23 12:00:00')
      }
    },
  )

  it('is not cut when the query names where the feed starts', async () => {
    const app = await seriesApp(files, { now: NOW })
    const feed = (await call(app, 'events.ics?start_date=2026-10-01')).text
    expect(feed).toContain('SUMMARY:Ended 2026-10-22 23:59:00')
  })
})
