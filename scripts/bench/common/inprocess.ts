// In-process query time: the store and app built in the bench's own process, and listEvents timed
// alone (no HTTP, no parsing, no serialization). Parameters come from the real argument pipeline.
import { createApp } from '../../../src/app.ts'
import { createStore } from '../../../src/content/store.ts'
import type { Lang } from '../../../src/languages.ts'
import { listEvents } from '../../../src/query/events.ts'
import { EVENT_LIST_ARGS } from '../../../src/args/events.ts'
import { parseParams, parseQuery, type ParsedParams } from '../../../src/args/parse.ts'
import type { Corpus } from './content.ts'
import { LANGS, searchWords } from './words.ts'

/** p50 and p99 of one set of runs, in ms. */
export interface Spread {
  p50Ms: number
  p99Ms: number
}

/** One query shape: cold (every run a query not answered before) and warm (one query, cache hits). */
export interface QueryTiming {
  name: string
  /** The warm query string; the cold runs shift its dates or word. */
  query: string
  /** Events the warm query matched (its `total`). */
  matches: number
  cold: Spread
  warm: Spread
}

/** Everything the in-process section reports. */
export interface InProcessResults {
  iterations: number
  /** Rounds of `iterations` runs; each spread is the round with the lowest p50 (see measureInProcess). */
  rounds: number
  storeAndAppMs: number
  /** Events the lists show: single events and the occurrences of series. */
  served: number
  /** The one-off search index build the first search in each language pays. */
  searchBuildMs: Record<Lang, number>
  queries: QueryTiming[]
}

/** A query shape: the warm query, and the i-th cold one with the clock it runs at. */
interface Shape {
  name: string
  warm: string
  /** A query not answered before, and the clock it runs at. */
  cold: (i: number) => { query: string; at: number }
}

const DAY = 86_400_000
/** A word no generated event holds. */
const NO_WORD = 'xylophonequartz'
const ZONE = 'Asia/Singapore'
const SITE = {
  url: 'http://127.0.0.1:3000',
  host: '127.0.0.1',
  apiRoot: '/wp-json',
  timezone: ZONE,
  defaultLang: 'en' as const,
  currency: 'SGD',
  currencySymbol: 'S$',
  currencyPosition: 'prefix' as const,
}

/** Loads the corpus in this process and times listEvents over four query shapes, `rounds` x `iterations` runs each. */
export async function measureInProcess(corpus: Corpus, iterations: number, rounds: number): Promise<InProcessResults> {
  const started = performance.now()
  const store = await createStore(corpus.dir, { defaultLanguage: 'en', fallback: true })
  const app = createApp({ store, site: SITE, perPage: 9, maxPerPage: 50, fallback: true })
  const storeAndAppMs = performance.now() - started
  const now = Date.now()
  const parse = (query: string, at: number): ParsedParams =>
    parseParams(EVENT_LIST_ARGS, parseQuery(new URLSearchParams(query)), app.context({ lang: 'en', now: at }))
  const run = (p: ParsedParams, at: number) => listEvents(p.values, p.given, app.context({ lang: 'en', now: at }))

  // Timed on their own, before any search query, so no query time hides an index build.
  const searchBuildMs = {} as Record<Lang, number>
  // A language's index builds in the background once asked for, and the first search finishes the build: timed
  // here as that first search (of a word no event holds), so the whole build is counted.
  for (const lang of LANGS) searchBuildMs[lang] = timed(() => app.indexes.search(lang).match(NO_WORD))

  const queries: QueryTiming[] = []
  for (const shape of shapes(corpus, now, iterations * rounds, (query) => run(parse(query, now), now).page.total)) {
    const warmParsed = parse(shape.warm, now)
    const matches = run(warmParsed, now).page.total
    const cold: Spread[] = []
    const warm: Spread[] = []
    // Best of a few rounds: on a shared machine another process's burst can inflate a whole round's p50
    // several times over, and the budget is about the query's cost, not the neighbours'.
    for (let round = 0; round < rounds; round++) {
      // Parsed up front: only listEvents is inside the timer. No cold run of any round is answered from the cache.
      const colds = Array.from({ length: iterations }, (_, i) => shape.cold(round * iterations + i)).map((c) => ({
        ...c,
        parsed: parse(c.query, c.at),
      }))
      cold.push(spread(colds.map((c) => timed(() => run(c.parsed, c.at)))))
      run(warmParsed, now) // primes the cache (the cold runs may have dropped it): every timed warm run is a hit
      warm.push(spread(Array.from({ length: iterations }, () => timed(() => run(warmParsed, now)))))
    }
    queries.push({ name: shape.name, query: shape.warm, matches, cold: best(cold), warm: best(warm) })
  }
  return { iterations, rounds, storeAndAppMs, served: store.events().length, searchBuildMs, queries }
}

/**
 * The four shapes. Results are cached per query with paging outside the key, so every cold run is a query
 * not answered before: the date range moved by a day, another word, or (the default list, which has no
 * parameter) the clock moved by a minute. Cold means no kept result, not no index: the indexes (start and
 * end orders, event windows) are kept up to date with each change, so a query after an edit meets them built.
 */
function shapes(corpus: Corpus, now: number, coldRuns: number, total: (query: string) => number): Shape[] {
  const today = Math.floor(now / DAY) * DAY
  const words = searchWords('en')
  // The brief's range, widened if the corpus (or the clock) reaches past it; cold runs move its start.
  const from = Math.min(Date.parse('2020-01-01'), corpus.span.first - (coldRuns + 1) * DAY)
  const to = Math.max(Date.parse('2030-12-31'), corpus.span.last + 7 * DAY)
  const all = (i: number, page: number) =>
    `page=${page}&per_page=50&start_date=${day(from + i * DAY)}&end_date=${day(to)}`
  // Page 100 if it exists; a smaller corpus (BENCH_EVENTS) gets its last full page.
  const page = Math.max(1, Math.min(100, Math.floor(total(all(0, 1)) / 50)))
  const range = (d: number) => `start_date=${day(d)}&end_date=${day(d + 60 * DAY)}&categories=4`
  return [
    // A clock a minute later each run: a default list never answered before (its window starts at the clock).
    { name: 'default list', warm: '', cold: (i) => ({ query: '', at: now + (i + 1) * 60_000 }) },
    {
      name: 'date range 60 d + category',
      warm: range(today + 30 * DAY),
      cold: (i) => ({ query: range(today + (i + 31) * DAY), at: now }),
    },
    {
      name: 'search one word',
      warm: 'search=Festival',
      cold: (i) => ({
        query: `search=${encodeURIComponent(words[i % words.length]!)}`,
        at: now + (Math.floor(i / words.length) + 1) * DAY,
      }),
    },
    {
      name: `page ${page}, per_page 50, all dates`,
      warm: all(0, page),
      cold: (i) => ({ query: all(i + 1, page), at: now }),
    },
  ]
}

function timed(work: () => unknown): number {
  const start = process.hrtime.bigint()
  work()
  return Number(process.hrtime.bigint() - start) / 1e6
}

/** The round with the lowest p50. */
function best(rounds: Spread[]): Spread {
  return rounds.reduce((min, r) => (r.p50Ms < min.p50Ms ? r : min))
}

/** Nearest-rank percentiles. */
function spread(samples: number[]): Spread {
  const sorted = [...samples].sort((a, b) => a - b)
  const at = (p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!
  return { p50Ms: at(0.5), p99Ms: at(0.99) }
}

function day(instant: number): string {
  return new Date(instant).toISOString().slice(0, 10)
}
