import { readdir, readFile } from 'node:fs/promises'
import { join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

// A kept answer (src/http/answer-reuse.ts) is served as long as `lifeOf` says the clock leaves it true. So
// every read of a request's clock must be one `lifeOf` accounts for: a new one fails here, and should be
// added to `lifeOf` (or shown to concern no anonymous GET) before it is added to this list.
const SRC = resolve(import.meta.dirname, '../../src')

/** Files reading the request's clock, and why `lifeOf` is right about them. */
const KNOWN: Record<string, string> = {
  'app.ts': 'the clock itself (AppOptions.now)',
  'http/context.ts': 'puts the clock in the context',
  'http/dispatch.ts': 'asks the kept answers and dates the new ones',
  'http/front-door.ts': 'asks the kept answers, as dispatch does',
  'args/events.ts': "the default window of event lists: until the next UTC midnight; describe's defaults: a second",
  'args/validators.ts': 'isTime: a relative date is never kept',
  'query/event-dates.ts': 'relative date arguments: never kept; strict_dates with a default: never kept',
  'query/linked.ts': 'only_with_upcoming: never kept',
  'content/store.ts': 'the horizon of open-ended series: when it moves, the store version moves and drops them all',
  'serialize/series.ts': "a series' next occurrences: single events are kept until the next UTC midnight",
  'routes/feeds.ts': 'whole feeds are kept per UTC day and store version; `.ics` answers are kept as event lists are',
  'query/feed.ts':
    "a feed's window starts 30 days before today (UTC): `.ics` answers and `?ical=1` are kept as event lists are",
  'routes/api-index.ts': 'gmt_offset: the API index is kept a second at most',
  'write/events.ts': 'writes are never kept',
  'write/event-status.ts': 'writes are never kept',
  'write/linked.ts': 'writes are never kept',
  'auth/users.ts': 'signed-in requests are never kept',
  'auth/limiter.ts': 'signed-in requests are never kept',
}

async function sources(dir: string): Promise<string[]> {
  const out: string[] = []
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...(await sources(path)))
    else if (entry.name.endsWith('.ts')) out.push(path)
  }
  return out
}

describe('the reads of the clock', () => {
  it('are all in files whose effect on kept answers is accounted for', async () => {
    const readers: string[] = []
    for (const file of await sources(SRC)) {
      const name = relative(SRC, file)
      if (name.startsWith('cli/') || name.startsWith('prerender/')) continue
      const text = await readFile(file, 'utf8')
      if (/\b(ctx|scope|view|app|asking|options)\.now\b/.test(text)) readers.push(name)
    }
    expect(readers.sort()).toEqual(Object.keys(KNOWN).sort())
  })
})
