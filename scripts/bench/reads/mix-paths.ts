// The varied mix: thousands of distinct, valid request paths, shaped like a site's real traffic
// rather than one URL hammered. Deterministic (seeded), so runs stay comparable.
import { CATEGORIES, ORGANIZERS, TAGS, VENUES, type Corpus } from '../common/content.ts'
import { LANGS, SLUG_PREFIX, searchWords, seeded, type BenchLang } from '../common/words.ts'

/** What the generator needs beyond the corpus: the API root and how many events the default list has. */
export interface MixInput {
  corpus: Corpus
  api: string
  /** `total` of the default list, so paging never asks for a page past the end. */
  defaultTotal: number
}

/** The kinds of request in the mix and their share of it. */
export const MIX_SHARES = {
  range: 0.3, // date range, with some of categories, tags, venue, organizer, featured
  search: 0.15,
  paged: 0.1, // deep pages of the default list
  id: 0.2,
  slug: 0.1,
  linked: 0.15, // venue, organizer, category and tag archives
} as const

export type MixKind = keyof typeof MIX_SHARES

/** A generated path and the kind of request it is. */
export interface MixPath {
  kind: MixKind
  path: string
}

const DAY = 86_400_000
const PER_PAGE = [5, 9, 10, 20, 50]
const LINKED = { venues: VENUES, organizers: ORGANIZERS, categories: CATEGORIES, tags: TAGS }

/** `count` distinct paths in shuffled order, each kind in its share; fewer if the corpus is too small to vary. */
export function mixPaths(input: MixInput, count: number): MixPath[] {
  const rng = seeded(42)
  const seen = new Set<string>()
  const out: MixPath[] = []
  for (const [kind, share] of Object.entries(MIX_SHARES) as [MixKind, number][]) {
    const wanted = Math.round(count * share)
    // A bounded number of attempts: a tiny corpus cannot give thousands of distinct singles.
    for (let made = 0, tries = 0; made < wanted && tries < wanted * 20; tries++) {
      const path = MAKERS[kind](input, rng)
      if (seen.has(path)) continue
      seen.add(path)
      out.push({ kind, path })
      made++
    }
  }
  // Shuffled, so consecutive requests (and the 10 connections) hit different kinds, as real clients do.
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1))
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

type Maker = (input: MixInput, rng: () => number) => string

const MAKERS: Record<MixKind, Maker> = {
  range(input, rng) {
    const start = input.corpus.span.first + pick(rng, spanDays(input)) * DAY
    const params: [string, string][] = [
      ['start_date', day(start)],
      ['end_date', day(start + pick(rng, 90) * DAY)],
    ]
    const lang = maybeLang(rng)
    if (rng() < 0.35) params.push(['categories', term('categories', lang, rng)])
    if (rng() < 0.25) params.push(['tags', term('tags', lang, rng)])
    if (rng() < 0.15) params.push(['venue', String(inRange(VENUES, rng))])
    if (rng() < 0.15) params.push(['organizer', String(inRange(ORGANIZERS, rng))])
    if (rng() < 0.1) params.push(['featured', rng() < 0.5 ? 'true' : 'false'])
    // Page 1 only: a narrow filter may match nothing, and only page 1 of nothing is a 200.
    return events(input, withLang([...params, ['per_page', String(oneOf(PER_PAGE, rng))]], lang))
  },
  search(input, rng) {
    const lang = maybeLang(rng)
    const params: [string, string][] = [['search', oneOf(searchWords(lang ?? 'en'), rng)]]
    // A start date too, so the same word is a different query (the server caches results per query).
    if (rng() < 0.7) params.push(['start_date', day(input.corpus.span.first + pick(rng, spanDays(input)) * DAY)])
    return events(input, withLang([...params, ['per_page', String(oneOf(PER_PAGE, rng))]], lang))
  },
  paged(input, rng) {
    const perPage = oneOf(PER_PAGE, rng)
    const pages = Math.max(1, Math.floor(input.defaultTotal / perPage))
    return events(
      input,
      withLang(
        [
          ['page', String(1 + pick(rng, pages))],
          ['per_page', String(perPage)],
        ],
        maybeLang(rng),
      ),
    )
  },
  id(input, rng) {
    const event = oneOf(input.corpus.published, rng)
    return query(`${input.api}/events/${event.id}`, withLang([], maybeLang(rng)))
  },
  slug(input, rng) {
    const event = oneOf(input.corpus.published, rng)
    const lang = oneOf(LANGS, rng)
    const slug = lang === 'en' ? event.slug : `${SLUG_PREFIX[lang].events}-${event.id - 1000}`
    const path = `/events/by-slug/${encodeURIComponent(slug)}`
    // Half by the language prefix (`/ms/wp-json/…`), half by `ml_language`: both are how clients ask.
    if (lang !== 'en' && rng() < 0.5) return `/${lang}${input.api}${path}`
    return query(`${input.api}${path}`, withLang([], lang === 'en' ? undefined : lang))
  },
  linked(input, rng) {
    const kind = oneOf(Object.keys(LINKED) as (keyof typeof LINKED)[], rng)
    const perPage = oneOf(PER_PAGE, rng)
    const pages = Math.ceil((LINKED[kind].last - LINKED[kind].first + 1) / perPage)
    const params: [string, string][] = [
      ['page', String(1 + pick(rng, pages))],
      ['per_page', String(perPage)],
    ]
    return query(`${input.api}/${kind}`, withLang(params, maybeLang(rng)))
  },
}

function events(input: MixInput, params: [string, string][]): string {
  return query(`${input.api}/events`, params)
}

function query(path: string, params: [string, string][]): string {
  return params.length === 0 ? path : `${path}?${new URLSearchParams(params).toString()}`
}

/** A category or tag by id, or in another language sometimes by its translated slug (exercises slug lookup). */
function term(kind: 'categories' | 'tags', lang: BenchLang | undefined, rng: () => number): string {
  const id = inRange(LINKED[kind], rng)
  return lang && lang !== 'en' && rng() < 0.5 ? `${SLUG_PREFIX[lang][kind]}-${id}` : String(id)
}

/** No `ml_language` (the default, English) a fifth of the time, otherwise one of the four. */
function maybeLang(rng: () => number): BenchLang | undefined {
  return rng() < 0.2 ? undefined : oneOf(LANGS, rng)
}

function withLang(params: [string, string][], lang: BenchLang | undefined): [string, string][] {
  return lang ? [...params, ['ml_language', lang]] : params
}

function spanDays(input: MixInput): number {
  return Math.round((input.corpus.span.last - input.corpus.span.first) / DAY) + 1
}

function day(instant: number): string {
  return new Date(instant).toISOString().slice(0, 10)
}

function inRange(range: { first: number; last: number }, rng: () => number): number {
  return range.first + pick(rng, range.last - range.first + 1)
}

function oneOf<T>(items: readonly T[], rng: () => number): T {
  return items[pick(rng, items.length)]!
}

function pick(rng: () => number, n: number): number {
  return Math.floor(rng() * n)
}
