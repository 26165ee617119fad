import ICAL from 'ical.js'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { call } from '../helpers.ts'
import { treeApp } from './review-tree.ts'

// Second review of issue 15 (docs/feeds.md §4): to choose between RRULE and RDATE, a feed expands a plain rule as
// a client would (clientStarts, src/content/model/recurrence-client.ts), without UNTIL. Almanac's own expansion
// stops at the horizon; the client's reading does not, so a rule that never yields (every 4 years, 29 February,
// a Monday: no year from 2026 has one) runs ical.js to SERIES_LIMITS.steps (5,000 candidates, each a year's
// sets: some 150 ms of one core here) for each such series of a content tree, on the first feed, with the event
// loop held. The work is counted in ical.js's candidates (the same count `guarded` bounds), not in time.

const apps: { remove(): Promise<unknown> }[] = []
afterAll(async () => {
  for (const app of apps) await app.remove()
  vi.restoreAllMocks()
})

const series = (rule: string) =>
  `---\nid: 900\ntitle: Rare\nslug: rare\ndate: 2020-01-01 09:00:00\nstart_date: 2026-01-05 09:00:00\nend_date: 2026-01-05 10:00:00\ntimezone: Europe/London\nrecurrence:\n  rrule: "${rule}"\n---\nBody\n`

describe('the cost of a series that never recurs, in its first feed', () => {
  it('stays within what the store spent expanding it, not the whole step budget', async () => {
    const prototype = ICAL.RecurIterator.prototype as unknown as Record<string, (...args: unknown[]) => unknown>
    const original = prototype.check_contracting_rules!
    let candidates = 0
    prototype.check_contracting_rules = function counted(this: unknown, ...args: unknown[]) {
      candidates++
      return original.apply(this, args)
    }
    try {
      const app = await treeApp(
        { 'events/rare.en.md': series('FREQ=YEARLY;INTERVAL=4;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO') },
        { base: false },
      )
      apps.push(app)
      const loading = candidates
      candidates = 0
      const feed = await call(app, 'events/900.ics')
      expect(feed.status).toBe(200)
      console.log('COUNTS', loading, candidates)
      expect(candidates).toBeLessThanOrEqual(Math.max(loading, 100))
    } finally {
      prototype.check_contracting_rules = original
    }
  })
})
