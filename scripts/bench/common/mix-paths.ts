// The varied mix, as the issue defines it: every request a new query of the event list, distinct date ranges
// x page sizes, a third of them with a search word and a third with a category. Seeded, so runs compare.
import { CATEGORIES, type Corpus } from './content.ts'
import { searchWords, seeded } from './words.ts'

/** The kinds of request in the mix, a third each. */
export const MIX_KINDS = ['range', 'search', 'category'] as const

export type MixKind = (typeof MIX_KINDS)[number]

/** A generated path and the kind of request it is. */
export interface MixPath {
  kind: MixKind
  path: string
}

const DAY = 86_400_000
const PER_PAGE = [5, 9, 10, 20, 50]
/** Range lengths in days: a weekend to a season. */
const LENGTHS = [2, 7, 14, 30, 60, 90]

/** `count` distinct paths under `api`, the kinds interleaved (range, search, category, range …). */
export function mixPaths(corpus: Corpus, api: string, count: number): MixPath[] {
  const rng = seeded(42)
  const words = searchWords('en')
  const days = Math.round((corpus.span.last - corpus.span.first) / DAY) + 1
  const seen = new Set<string>()
  const out: MixPath[] = []
  // Bounded attempts: a tiny corpus still has days x lengths x sizes x words to draw from, but never loop forever.
  for (let tries = 0; out.length < count && tries < count * 20; tries++) {
    const kind = MIX_KINDS[out.length % 3]!
    const start = corpus.span.first + Math.floor(rng() * days) * DAY
    const params: [string, string][] = [
      ['start_date', day(start)],
      ['end_date', day(start + oneOf(LENGTHS, rng) * DAY)],
      ['per_page', String(oneOf(PER_PAGE, rng))],
    ]
    if (kind === 'search') params.push(['search', oneOf(words, rng)])
    if (kind === 'category') params.push(['categories', String(CATEGORIES.first + Math.floor(rng() * 30))])
    const path = `${api}/events?${new URLSearchParams(params).toString()}`
    if (seen.has(path)) continue
    seen.add(path)
    out.push({ kind, path })
  }
  return out
}

function day(instant: number): string {
  return new Date(instant).toISOString().slice(0, 10)
}

function oneOf<T>(items: readonly T[], rng: () => number): T {
  return items[Math.floor(rng() * items.length)]!
}
