import { spawnSync } from 'node:child_process'
import { afterAll, describe, expect, it } from 'vitest'
import { call } from '../helpers.ts'
import { instancesOf, parseFeed } from './parse.ts'
import { treeApp } from './review-tree.ts'

// Review of issue 15: a series is one VEVENT with its rule as the file has it (docs/feeds.md §4). Almanac takes
// rules ical.js 2.2 cannot iterate (recurrence-rule.ts checks them itself), but a client built on ical.js (the
// tests' reader, Thunderbird's engine) gets the RRULE as written: it must find the occurrences the JSON lists,
// and must not be stopped by the feed.

const apps: { remove(): Promise<unknown> }[] = []
afterAll(async () => {
  for (const app of apps) await app.remove()
})

const series = (id: number, start: string, rule: string) =>
  `---\nid: ${id}\ntitle: Series ${id}\nslug: series-${id}\ndate: 2020-01-01 09:00:00\nstart_date: ${start} 10:00:00\nend_date: ${start} 11:00:00\ntimezone: Europe/London\nrecurrence:\n  rrule: "${rule}"\n---\nBody\n`

async function jsonStarts(app: Awaited<ReturnType<typeof treeApp>>, id: number): Promise<number[]> {
  const out: number[] = []
  for (let page = 1; ; page++) {
    const res = await call(app, `events?start_date=2026-01-01&end_date=2029-01-01&per_page=50&page=${page}`)
    if (res.status !== 200) break
    for (const event of res.body.events)
      if ((event.series?.id ?? event.id) === id) out.push(Date.parse(`${event.utc_start_date.replace(' ', 'T')}Z`))
    if (page >= res.body.total_pages) break
  }
  return out
}

describe('a rule ical.js reads otherwise than Almanac', () => {
  for (const [id, start, rule] of [
    [90, '2027-05-17', 'FREQ=YEARLY;BYDAY=20MO;COUNT=2'],
    [91, '2027-03-08', 'FREQ=YEARLY;BYWEEKNO=10;BYDAY=MO;COUNT=2'],
  ] as const)
    it(`gives an ical.js client the occurrences the JSON lists: ${rule}`, async () => {
      const app = await treeApp({ [`events/s${id}.en.md`]: series(id, start, rule) }, { base: false })
      apps.push(app)
      expect(app.problems).toEqual([])
      const json = await jsonStarts(app, id)
      expect(json).toHaveLength(2)
      const feed = await call(app, `events/${id}.ics`)
      const starts = instancesOf(parseFeed(feed.text), '2029-01-01T00:00:00').map((one) => one.start)
      expect(starts).toEqual(json)
    })
})

describe('a daily rule limited to the last day of the month', () => {
  it('gives a feed that ical.js expands in bounded time (it spins for ever on DAILY;BYMONTHDAY=-1)', async () => {
    const app = await treeApp(
      { 'events/s92.en.md': series(92, '2026-11-30', 'FREQ=DAILY;BYMONTHDAY=-1;COUNT=6') },
      { base: false },
    )
    apps.push(app)
    expect(app.problems).toEqual([])
    expect(await jsonStarts(app, 92)).toHaveLength(6)
    const feed = await call(app, 'events/92.ics')
    // ical.js runs in a child process, so a loop that never ends is stopped instead of stopping the tests.
    const script = `const ICAL = require('ical.js'); let text = ''; process.stdin.on('data', (c) => (text += c)).on('end', () => {
      const event = new ICAL.Event(new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent('vevent'))
      const it = event.iterator(); let n = 0; for (let next = it.next(); next && n < 20; next = it.next()) n++
      console.log(n) })`
    const run = spawnSync(process.execPath, ['-e', script], { input: feed.text, timeout: 5000, encoding: 'utf8' })
    expect(run.signal, 'ical.js did not finish within 5 s').toBeNull()
    expect(run.stdout.trim()).toBe('6')
  })
})

describe('the RRULE line of a series', () => {
  // Almanac refuses both at load (recurrence-rule.ts), where it once served them: the file is reported, its
  // series serves nothing, and no feed carries the rule.
  for (const [id, rule, problem] of [
    [93, 'FREQ=WEEKLY;COUNT=3\\nX-INJECTED:yes', /holds a character no rule has/],
    [94, 'FREQ=WEEKLY;UNTIL=2027-01-01', /UNTIL is not written YYYYMMDD/],
  ] as const)
    it(`refuses a rule a client could not read as Almanac does, and no feed carries it: ${rule}`, async () => {
      const app = await treeApp({ [`events/s${id}.en.md`]: series(id, '2026-12-01', rule) }, { base: false })
      apps.push(app)
      expect(app.problems.map((one) => one.message).join('\n')).toMatch(problem)
      expect(await jsonStarts(app, id)).toEqual([])
      const feed = await call(app, 'events.ics?start_date=2026-01-01')
      expect(feed.status).toBe(200)
      expect(feed.text).not.toMatch(/X-INJECTED|UNTIL=2027-01-01/)
    })
})

describe('a series whose dates the rule does not give alone', () => {
  it('gives a client the JSON occurrences when its first start is off its rule (RFC 5545 section 3.8.2.4: undefined)', async () => {
    const app = await treeApp(
      { 'events/s95.en.md': series(95, '2026-11-30', 'FREQ=WEEKLY;BYDAY=TU;COUNT=3') },
      { base: false },
    )
    apps.push(app)
    const json = await jsonStarts(app, 95)
    expect(json).toHaveLength(3)
    const feed = await call(app, 'events/95.ics')
    expect(instancesOf(parseFeed(feed.text), '2029-01-01T00:00:00').map((one) => one.start)).toEqual(json)
  })

  it('gives a client each occurrence once when an extra date is one the rule gives too', async () => {
    const text = series(96, '2026-12-01', 'FREQ=DAILY;COUNT=3').replace(
      '---\nBody',
      '  rdate: [2026-12-02, 2026-12-10]\n---\nBody',
    )
    const app = await treeApp({ 'events/s96.en.md': text }, { base: false })
    apps.push(app)
    const json = await jsonStarts(app, 96)
    expect(json).toHaveLength(4)
    const feed = await call(app, 'events/96.ics')
    const starts = instancesOf(parseFeed(feed.text), '2029-01-01T00:00:00').map((one) => one.start)
    expect([...starts].sort()).toEqual([...json].sort())
  })
})
