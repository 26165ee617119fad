import { rm } from 'node:fs/promises'
import { afterAll, describe, expect, it } from 'vitest'
import { as, call, json, writableApp } from '../helpers.ts'

// Second review of issue 15 (docs/feeds.md §3): SEQUENCE is the latest `modified` of the event and the venue and
// organizers it links to, and every write raises `modified` of the record written by a second at least. A write
// to the event raises only the event's own `modified`, so it does not raise SEQUENCE when a linked record's is as
// late: the subscriber's client keeps the old VEVENT (RFC 5546 section 2.1.4: same SEQUENCE, same DTSTAMP).

const dirs: string[] = []
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

const sequenceOf = (text: string) => Number(/^SEQUENCE:(\d+)/m.exec(text)![1])

describe('SEQUENCE after a write to the event itself', () => {
  it('rises when the event is retitled in the second its venue was renamed', async () => {
    const app = await writableApp('feeds')
    dirs.push(app.dir)
    expect((await call(app, 'venues/10', json('POST', { venue: 'Town Hall' }, as('admin')))).status).toBe(200)
    const before = (await call(app, 'events/20.ics')).text
    // The tests' clock stands still: the two writes are in the same second, as a script's or an import's are.
    expect((await call(app, 'events/20', json('POST', { title: 'Concert (new title)' }, as('admin')))).status).toBe(200)
    const after = (await call(app, 'events/20.ics')).text
    expect(after).toContain('SUMMARY:Concert (new title)')
    expect(sequenceOf(after)).toBeGreaterThan(sequenceOf(before))
  })
})
