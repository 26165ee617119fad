import { describe, expect, it } from 'vitest'
import { call, fixtureApp } from '../helpers.ts'

// Second review of issue 15 (docs/feeds.md §3): SOURCE is the feed's address with its query, less what the feed
// does not read (`page`, `per_page`, `ical`). A feed is what an anonymous caller reads (docs/feeds.md §2): it ignores
// `password` too, and a calendar app keeps SOURCE, syncs it and shows it; a password has no place there.

const sourceOf = (text: string) => /^SOURCE[^\r]*(\r\n [^\r]*)*/m.exec(text)![0].replace(/\r\n /g, '')

describe('the SOURCE of a feed asked for with a password', () => {
  it('leaves the password out, as the feed does', async () => {
    const app = await fixtureApp('feeds')
    const res = await call(app, 'events.ics?categories=2&password=open-sesame')
    expect(res.status).toBe(200)
    expect(sourceOf(res.text)).toContain('categories=2')
    expect(sourceOf(res.text)).not.toContain('open-sesame')
  })
})
