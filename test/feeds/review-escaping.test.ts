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

describe('texts past what a calendar shows', () => {
  it('cuts a VEVENT description at 32,768 characters and a title, venue or term name at 1,000, with …', async () => {
    const body = `${'\\;,'.repeat(600_000)}\n`
    const title = `${'T\\'.repeat(2_000)}🎉`
    const app = await treeApp({
      'venues/long.en.md': `---\nid: 70\nvenue: ${JSON.stringify('V;'.repeat(1_000))}\nslug: long\n---\n`,
      'events/long.en.md': `---\nid: 71\ntitle: ${JSON.stringify(title)}\nslug: long\nvenue: [70]\ndate: 2026-10-01 09:00:00\nstart_date: 2026-12-03 10:00:00\nend_date: 2026-12-03 11:00:00\n---\n${body}`,
    })
    apps.push(app)
    const feed = await call(app, 'events/71.ics')
    expect(feed.status).toBe(200)
    const event = parseFeed(feed.text).getFirstSubcomponent('vevent')!
    const description = String(event.getFirstPropertyValue('description'))
    expect(description).toBe(`${body.slice(0, 32_768)}…`)
    expect(String(event.getFirstPropertyValue('summary'))).toBe(`${title.slice(0, 1_000)}…`)
    // The single event's feed is named by its title, cut as every line's worth is.
    expect(lines(feed.text)).toContain(`X-WR-CALNAME:${escapeText(`${title.slice(0, 1_000)}…`)}`)
    expect(String(event.getFirstPropertyValue('location'))).toBe(`${'V;'.repeat(500)}…`)
    // The JSON answer holds the whole of them.
    const json = await call(app, 'events/71')
    expect(json.body.title).toBe(title)
  })

  it('never cuts between the halves of a surrogate pair', async () => {
    const title = `${'x'.repeat(999)}🎉🎉`
    const app = await treeApp({
      'events/emoji.en.md': `---\nid: 72\ntitle: ${JSON.stringify(title)}\nslug: emoji\ndate: 2026-10-01 09:00:00\nstart_date: 2026-12-03 10:00:00\nend_date: 2026-12-03 11:00:00\n---\nBody\n`,
    })
    apps.push(app)
    const feed = await call(app, 'events/72.ics')
    const summary = String(parseFeed(feed.text).getFirstSubcomponent('vevent')!.getFirstPropertyValue('summary'))
    expect(summary).toBe(`${'x'.repeat(999)}…`)
  })
})
