import { rm, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createApp, type App, type AppOptions } from '../../src/app.ts'
import type { Store } from '../../src/content/store.ts'
import { as, call, fixtureApp, json, SAMPLE_NOW, testSite, writableApp, type TestAppOptions } from '../helpers.ts'

// The answers an app keeps (src/http/answer-reuse.ts, docs/architecture.md §3): an anonymous GET or HEAD asked
// again is served from the bytes of its first answer, until the store or the clock makes that answer untrue.

const NS = '/wp-json/calendar/events/v1/'

/** How many requests the app has answered from kept answers. */
const hits = (app: App) => app.answers?.hits ?? 0

/** An app over the same store and clock that keeps nothing (or keeps within `answerCache`): what the answer must be. */
function twin(store: Store, options: TestAppOptions, answerCache: AppOptions['answerCache'] = false): App {
  return createApp({
    store,
    site: testSite(options),
    perPage: options.perPage ?? 9,
    maxPerPage: 50,
    fallback: true,
    now: () => options.now ?? SAMPLE_NOW,
    log: () => {},
    answerCache,
  })
}

/** Status, every header and the body, as text to compare. */
async function whole(app: App, path: string, init: RequestInit = {}): Promise<string> {
  const answer = await call(app, path, init)
  return `${answer.status}\n${[...answer.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n${answer.text}`
}

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

describe('an anonymous answer asked again', () => {
  it('is served from the answer kept the first time, byte for byte', async () => {
    const app = await fixtureApp('reference')
    const first = await whole(app, 'events')
    expect(hits(app)).toBe(0)
    expect(await whole(app, 'events')).toBe(first)
    expect(hits(app)).toBe(1)
    await call(app, 'events/10')
    expect(hits(app)).toBe(1)
  })

  it('is kept in place of another answer only when asked a second time', async () => {
    const app = twin((await fixtureApp('reference')).store, {}, { maxBytes: 1 << 30, maxEntries: 1 })
    const events = await whole(app, 'events')
    const venues = await whole(app, 'venues')
    expect(await whole(app, 'events'), 'the first answer still kept').toBe(events)
    expect(hits(app)).toBe(1)
    expect(await whole(app, 'venues'), 'asked again: made again, and kept now').toBe(venues)
    expect(hits(app)).toBe(1)
    expect(await whole(app, 'venues')).toBe(venues)
    expect(hits(app)).toBe(2)
    expect(await whole(app, 'events'), 'pushed out by it').toBe(events)
    expect(hits(app)).toBe(2)
  })

  it('is the same kept answer for a path that differs only in case or a trailing slash', async () => {
    const app = await fixtureApp('reference')
    const first = await whole(app, 'events')
    expect(await whole(app, '/WP-JSON/Calendar/Events/V1/EVENTS/')).toBe(first)
    expect(hits(app)).toBe(1)
  })

  it('is kept apart by language segment, query string and Origin, each answered as without keeping', async () => {
    const options: TestAppOptions = {}
    const app = await fixtureApp('reference', options)
    const plain = twin(app.store, options)
    const asks: [string, RequestInit?][] = [
      ['events'],
      ['/ms/wp-json/calendar/events/v1/events'],
      ['events?per_page=2'],
      ['events', { headers: { Origin: 'https://a.example' } }],
      ['events', { headers: { Origin: 'https://b.example' } }],
    ]
    const answers = new Set<string>()
    for (const [path, init] of asks) {
      const kept = await whole(app, path, init)
      expect(kept, path).toBe(await whole(plain, path, init))
      answers.add(kept)
    }
    expect(answers.size).toBe(asks.length)
  })

  it('answers HEAD and a matching If-None-Match as it would without keeping', async () => {
    const options: TestAppOptions = {}
    const app = await fixtureApp('reference', options)
    const plain = twin(app.store, options)
    const first = await call(app, 'events')
    const etag = first.headers.get('etag')!
    for (const init of [
      { method: 'HEAD' },
      { headers: { 'If-None-Match': etag } },
      { method: 'HEAD', headers: { 'If-None-Match': `W/${etag}` } },
    ]) {
      const kept = await whole(app, 'events', init)
      expect(kept).toBe(await whole(plain, 'events', init))
    }
    expect((await call(app, 'events', { headers: { 'If-None-Match': etag } })).status).toBe(304)
    expect((await call(app, 'events', { method: 'HEAD' })).text).toBe('')
  })
})

describe('what is never served from a kept answer, nor kept', () => {
  it('a signed-in caller gets their own private answer, and anonymous callers never see it', async () => {
    const app = await writableApp('reference')
    dirs.push(app.dir)
    const anonymous = await whole(app, 'events')
    const signedIn = await call(app, 'events?status=publish,draft', { headers: as('editor') })
    expect(signedIn.headers.get('cache-control')).toContain('private')
    const again = await call(app, 'events', { headers: as('editor') })
    expect(again.headers.get('cache-control')).toContain('private')
    expect(await whole(app, 'events')).toBe(anonymous)
    expect(hits(app)).toBe(1)
  })

  it('an answer a password opened is made again for every request', async () => {
    const app = await fixtureApp('reference')
    const opened = await call(app, 'events/16?password=s3cret')
    expect(opened.body.description).toBe('<p>Hidden details</p>')
    await call(app, 'events/16?password=s3cret')
    await call(app, 'events?password=s3cret')
    await call(app, 'events?password=s3cret')
    expect(hits(app)).toBe(0)
    expect((await call(app, 'events/16')).status).toBe(403)
  })
})

describe('a kept answer is not served once untrue', () => {
  it('after a write through the API, at the very next request', async () => {
    const app = await writableApp('reference')
    dirs.push(app.dir)
    const before = await call(app, 'events/10')
    expect((await call(app, 'events/10')).text).toBe(before.text)
    const patch = await call(app, 'events/10', json('POST', { title: 'Renamed by a write' }, as('admin')))
    expect(patch.status).toBe(200)
    expect((await call(app, 'events/10')).body.title).toBe('Renamed by a write')
  })

  it('after an edit on disk, at the very next request once the store has read it', async () => {
    const app = await writableApp('reference')
    dirs.push(app.dir)
    expect((await call(app, 'events/10')).body.title).not.toBe('Edited on disk')
    const path = 'events/workshop-four.en.md'
    const text = await readFile(join(app.content, path), 'utf8')
    await writeFile(join(app.content, path), text.replace(/^title: .*$/m, 'title: Edited on disk'))
    await app.store.reload([path])
    expect((await call(app, 'events/10')).body.title).toBe('Edited on disk')
  })

  it('the default event list once its window has moved to the next UTC day', async () => {
    const options: TestAppOptions = { now: SAMPLE_NOW }
    const app = await fixtureApp('window', options)
    const plain = twin(app.store, options)
    const today = await whole(app, 'events')
    options.now = SAMPLE_NOW + 86_400_000
    const tomorrow = await whole(app, 'events')
    expect(tomorrow).not.toBe(today)
    expect(tomorrow).toBe(await whole(plain, 'events'))
  })

  it('an event list with a relative date, as soon as the local date it names moves', async () => {
    // 02:08 UTC is 10:08 in Kuala Lumpur; 17:08 UTC is 01:08 the next day there, the same UTC day.
    const options: TestAppOptions = { now: SAMPLE_NOW, timezone: 'Asia/Kuala_Lumpur' }
    const app = await fixtureApp('window', options)
    const plain = twin(app.store, options)
    const before = await whole(app, 'events?starts_after=now')
    options.now = SAMPLE_NOW + 15 * 3_600_000
    const after = await whole(app, 'events?starts_after=now')
    expect(after).not.toBe(before)
    expect(after).toBe(await whole(plain, 'events?starts_after=now'))
  })

  it('a venue list of those with upcoming events is made again each time', async () => {
    const options: TestAppOptions = { now: SAMPLE_NOW }
    const app = await fixtureApp('reference', options)
    const plain = twin(app.store, options)
    const before = await whole(app, 'venues?only_with_upcoming=1')
    options.now = SAMPLE_NOW + 3 * 365 * 86_400_000
    const after = await whole(app, 'venues?only_with_upcoming=1')
    expect(after).not.toBe(before)
    expect(after).toBe(await whole(plain, 'venues?only_with_upcoming=1'))
  })

  it('an answer that reads the clock to the second, once the second has passed', async () => {
    const options: TestAppOptions = { now: SAMPLE_NOW }
    const app = await fixtureApp('window', options)
    const plain = twin(app.store, options)
    for (const path of ['events?strict_dates=true', '/wp-json/', NS]) {
      options.now = SAMPLE_NOW
      const before = await whole(app, path)
      options.now = SAMPLE_NOW + 1000
      const after = await whole(app, path)
      expect(after, path).not.toBe(before)
      expect(after, path).toBe(await whole(plain, path))
    }
  })
})
