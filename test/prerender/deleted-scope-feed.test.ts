import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import type { ContentRecord } from '../../src/content/store.ts'
import { createSiteBuilder } from '../../src/prerender/site-builder.ts'
import { buildOptions, writableApp } from '../helpers.ts'

// A venue, organizer or term deleted on disk kept its feed file through every update (build --watch, serve
// --build): the feeds asked again were those of the records there are now. With an event given a password in the
// same pull, the venue's feed kept that event's title and description on the static host until the next full build.

it('an update removes the feed of a deleted venue, and with it the events it held', async () => {
  const app = await writableApp('reference')
  const out = await mkdtemp(join(tmpdir(), 'almanac-deleted-feed-'))
  try {
    const builder = createSiteBuilder(buildOptions(app.store, out, { perPage: 2, feeds: true }))
    await builder.full()
    const feeds = ['', 'ms/', 'ta/', 'zh-hans/'].map((lang) =>
      join(out, `${lang}wp-json/calendar/events/v1/venues/4/events.ics`),
    )
    expect(await readFile(feeds[0]!, 'utf8')).toContain('Summer Concert')
    const changes: [ContentRecord | undefined, ContentRecord | undefined][] = []
    app.store.onChange((before, after) => changes.push([before, after]))
    const event = join(app.content, 'events/summer-concert.en.md')
    await writeFile(event, (await readFile(event, 'utf8')).replace('status: publish', 'status: publish\npassword: x'))
    await unlink(join(app.content, 'venues/town-hall.en.md'))
    await app.store.reload(['events/summer-concert.en.md', 'venues/town-hall.en.md'])
    await builder.update(changes.splice(0))
    expect(existsSync(join(out, 'wp-json/calendar/events/v1/events/7.json'))).toBe(false)
    for (const feed of feeds) expect(existsSync(feed), feed).toBe(false)
  } finally {
    await rm(out, { recursive: true, force: true })
    await rm(app.dir, { recursive: true, force: true })
  }
})
