// The feeds section (issue 15): the whole-calendar feed of the generated tree, answered in this process through the
// app (no HTTP): the first answer (cold: every VEVENT written), a kept answer (cached), and the answer after one
// event changed on disk (every other VEVENT kept); the same in a second language; then two static builds, by default
// (feeds: auto) and with --no-feeds, for the files, bytes and time the feeds add. Reported numbers, not goals.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createApp } from '../../../src/app.ts'
import { createStore } from '../../../src/content/store.ts'
import { buildSite } from '../../../src/prerender/site-builder.ts'
import { SITE } from '../common/build-run.ts'
import type { Corpus } from '../common/content.ts'
import { log } from '../common/run.ts'

const FEED = `${SITE.url}/wp-json/calendar/events/v1/events.ics`

export interface FeedResults {
  events: number
  vevents: number
  bytes: number
  coldMs: number
  cachedP50Ms: number
  afterEditMs: number
  coldOtherLanguageMs: number
  build?: {
    withMs: number
    withoutMs: number
    /** What the default build's feeds add (the calendar's, and the scoped ones if they fit within 1 GB). */
    files: number
    bytes: number
    totalBytes: number
    /** The feeds of categories, tags, venues and organizers: their files and bytes, and whether the default kept them. */
    scoped: { files: number; bytes: number; written: boolean }
  }
}

async function timedFetch(app: ReturnType<typeof createApp>, url: string): Promise<{ ms: number; text: string }> {
  const started = performance.now()
  const response = await app.fetch(new Request(url))
  const text = await response.text()
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`)
  return { ms: performance.now() - started, text }
}

export async function measureFeeds(corpus: Corpus, tmp: string, build: boolean): Promise<FeedResults> {
  log('feeds: the whole-calendar feed, cold, cached and after an edit …')
  const store = await createStore(corpus.dir, { defaultLanguage: 'en', fallback: true })
  const app = createApp({ store, site: SITE, perPage: 9, maxPerPage: 50, fallback: true })
  const cold = await timedFetch(app, FEED)
  const cached: number[] = []
  for (let i = 0; i < 50; i++) cached.push((await timedFetch(app, FEED)).ms)
  cached.sort((a, b) => a - b)
  const file = store.list('events').find((record) => record.source.data.recurrence === undefined)!.source.path
  const path = join(corpus.dir, file)
  await writeFile(path, (await readFile(path, 'utf8')).replace(/^title: (.*)$/m, 'title: $1 (edited)'))
  await store.reload([file])
  const afterEdit = await timedFetch(app, FEED)
  const other = await timedFetch(app, `${FEED}?ml_language=ms`)
  const results: FeedResults = {
    events: store.events().length,
    vevents: cold.text.split('BEGIN:VEVENT').length - 1,
    bytes: Buffer.byteLength(cold.text),
    coldMs: cold.ms,
    cachedP50Ms: cached[Math.floor(cached.length / 2)]!,
    afterEditMs: afterEdit.ms,
    coldOtherLanguageMs: other.ms,
  }
  if (build) results.build = await measureBuilds(store, tmp)
  return results
}

/** Two full builds of the tree, by default (feeds: auto) and without feeds: what the feeds add. Both stay in `tmp`. */
async function measureBuilds(store: Awaited<ReturnType<typeof createStore>>, tmp: string) {
  log('feeds: two static builds, with and without feeds …')
  const options = (out: string, feeds: boolean | undefined) => ({
    store,
    site: SITE,
    out: join(tmp, out),
    publicUrl: 'https://cdn.example.org',
    perPage: 9,
    maxPerPage: 50,
    ...(feeds === undefined ? {} : { feeds }),
  })
  const started = performance.now()
  const withFeeds = await buildSite(options('dist-feeds', undefined))
  const withMs = performance.now() - started
  const again = performance.now()
  const without = await buildSite(options('dist-no-feeds', false))
  const withoutMs = performance.now() - again
  return {
    withMs,
    withoutMs,
    files: withFeeds.files - without.files,
    bytes: withFeeds.bytes - without.bytes,
    totalBytes: withFeeds.bytes,
    scoped: withFeeds.scopedFeeds ?? { files: 0, bytes: 0, written: false },
  }
}

// As README: MB are 10^6 bytes.
const MB = 1e6

export function formatFeeds(r: FeedResults): string {
  const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 0)} ms`
  const lines = [
    'Feeds (in-process, through the app; reported, not goals)',
    `  whole-calendar feed: ${r.vevents.toLocaleString('en')} VEVENTs for ${r.events.toLocaleString('en')} served events, ${(r.bytes / MB).toFixed(1)} MB`,
    `  cold ${ms(r.coldMs)} · cached p50 ${ms(r.cachedP50Ms)} · after one edit ${ms(r.afterEditMs)} · cold in Malay ${ms(r.coldOtherLanguageMs)}`,
  ]
  if (r.build)
    lines.push(
      `  static build (default): feeds add ${r.build.files.toLocaleString('en')} files and ${(r.build.bytes / MB).toFixed(1)} MB ` +
        `(${((100 * r.build.bytes) / r.build.totalBytes).toFixed(1)}% of ${(r.build.totalBytes / MB).toFixed(0)} MB); ` +
        `build ${(r.build.withMs / 1000).toFixed(1)} s, ${(r.build.withoutMs / 1000).toFixed(1)} s with --no-feeds`,
      `  feeds of categories, tags, venues, organizers: ${r.build.scoped.files.toLocaleString('en')} files, ` +
        `${(r.build.scoped.bytes / MB).toFixed(1)} MB${r.build.scoped.written ? ', written' : ' (estimated), left out by default: the site would pass 1 GB'}`,
    )
  return lines.join('\n')
}
