import { afterAll, describe, expect, it } from 'vitest'
import { call } from '../helpers.ts'
import { parseFeed } from './parse.ts'
import { treeApp } from './review-tree.ts'

// Review of issue 15: text a content author writes reaches the calendar's own properties and parameters
// escaped as RFC 5545 asks (sections 3.3.11 TEXT, 3.2 parameter values), so no name can add or end a property.

const apps: { remove(): Promise<unknown> }[] = []
afterAll(async () => {
  for (const app of apps) await app.remove()
})

/** RFC 5545 section 3.3.11: a TEXT value's backslash, semicolon, comma and line breaks escaped. */
function escapeText(value: string): string {
  return value.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r\n|\r|\n/g, '\\n')
}

/** The unfolded content lines of a feed. */
function lines(feed: string): string[] {
  return feed.replace(/\r\n[ \t]/g, '').split('\r\n')
}

const HOSTILE = 'Talks, "Q" C:\\new; x\nX-INJECTED:yes\nEND:VCALENDAR'

describe('the calendar name of a feed', () => {
  it('escapes a category name as TEXT: no raw line break, and no property of its own', async () => {
    const app = await treeApp({
      'categories/hostile.en.md': `---\nid: 63\nname: ${JSON.stringify(HOSTILE)}\nslug: hostile\n---\n`,
    })
    apps.push(app)
    const feed = await call(app, 'categories/63/events.ics')
    expect(feed.status).toBe(200)
    // Every line ends CRLF: no bare LF or CR inside a line.
    expect(feed.text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/)
    const calendar = parseFeed(feed.text)
    expect(calendar.getAllProperties().map((p) => p.name)).not.toContain('x-injected')
    expect(lines(feed.text)).toContain(`X-WR-CALNAME:${escapeText(`127.0.0.1: ${HOSTILE}`)}`)
    expect(lines(feed.text)).toContain(`NAME:${escapeText(`127.0.0.1: ${HOSTILE}`)}`)
  })

  it("escapes an event's title as TEXT in its single feed's name", async () => {
    const app = await treeApp({
      'events/hostile.en.md': `---\nid: 60\ntitle: ${JSON.stringify(HOSTILE)}\nslug: hostile\ndate: 2026-10-01 09:00:00\nstart_date: 2026-12-03 10:00:00\nend_date: 2026-12-03 11:00:00\n---\nBody\n`,
    })
    apps.push(app)
    const feed = await call(app, 'events/60.ics')
    expect(feed.status).toBe(200)
    expect(feed.text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/)
    expect(lines(feed.text)).toContain(`X-WR-CALNAME:${escapeText(HOSTILE)}`)
    // The event itself is still in the feed: the name did not end the calendar before it.
    expect(parseFeed(feed.text).getAllSubcomponents('vevent')).toHaveLength(1)
  })
})

describe('the ORGANIZER of a VEVENT', () => {
  it("keeps its address and its whole name when the name has a double quote (RFC 6868 ^')", async () => {
    const app = await treeApp({
      'organizers/quoted.en.md': `---\nid: 62\norganizer: 'The "Quoted" Players: live'\nslug: quoted\nemail: players@example.org\n---\n`,
      'events/play.en.md': `---\nid: 61\ntitle: A play\nslug: play\ndate: 2026-10-01 09:00:00\nstart_date: 2026-12-03 10:00:00\nend_date: 2026-12-03 11:00:00\norganizer: [62]\n---\nBody\n`,
    })
    apps.push(app)
    const feed = await call(app, 'events/61.ics')
    const organizer = parseFeed(feed.text).getFirstSubcomponent('vevent')!.getFirstProperty('organizer')!
    expect(organizer.getFirstValue()).toBe('mailto:players@example.org')
    expect(organizer.getParameter('cn')).toBe('The "Quoted" Players: live')
  })
})

describe('control characters in an event', () => {
  it('reach no content line: RFC 5545 allows no control character but HTAB in a value', async () => {
    const app = await treeApp({
      'events/bell.en.md': `---\nid: 64\ntitle: "Bell \\a and escape \\e[31m"\nslug: bell\ndate: 2026-10-01 09:00:00\nstart_date: 2026-12-03 10:00:00\nend_date: 2026-12-03 11:00:00\n---\nA bell \u0007, an escape \u001b[31m red, a form feed \u000c.\n`,
    })
    apps.push(app)
    const feed = await call(app, 'events/64.ics')
    expect(feed.status).toBe(200)
    expect(feed.text).toContain('SUMMARY:Bell')
    const controls = [...feed.text.replace(/\r\n/g, '')].filter((c) => (c < ' ' && c !== '\t') || c === '\u007f')
    expect(controls).toEqual([])
  })
})
