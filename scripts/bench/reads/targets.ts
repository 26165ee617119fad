// The repeated answers the issue measures, each one URL loaded on its own against its limit.
import { get } from '../common/client.ts'
import type { Corpus } from '../common/content.ts'

/** One URL, relative to the API root. */
export interface Target {
  name: string
  path: string
}

const DAY = 86_400_000

/** The URLs over this corpus; page 5 becomes the last page when a small corpus has fewer. */
export async function readTargets(base: string, corpus: Corpus, now = Date.now()): Promise<Target[]> {
  const paged = await get(`${base}/events?per_page=50`)
  if (paged.status !== 200) throw new Error(`GET /events?per_page=50: HTTP ${paged.status}`)
  const pages = (JSON.parse(paged.body.toString('utf8')) as { total_pages: number }).total_pages
  const today = Math.floor(now / DAY) * DAY
  const slug = corpus.published.find((e) => e.id === corpus.sampleEventId)?.slug
  if (!slug) throw new Error('the sample event has no slug in the corpus')
  return [
    { name: 'default event list', path: '/events' },
    { name: `page ${Math.min(5, pages)}, per_page=50`, path: `/events?page=${Math.min(5, pages)}&per_page=50` },
    {
      name: 'category + date range',
      path: `/events?categories=4&start_date=${day(today + 30 * DAY)}&end_date=${day(today + 90 * DAY)}`,
    },
    { name: 'search one word', path: '/events?search=Festival' },
    { name: 'single event', path: `/events/${corpus.sampleEventId}` },
    { name: 'event by slug', path: `/events/by-slug/${encodeURIComponent(slug)}` },
    { name: 'venues list', path: '/venues' },
    { name: 'organizers list', path: '/organizers' },
    { name: 'categories list', path: '/categories' },
    { name: 'tags list', path: '/tags' },
    { name: 'ml_language=ms list', path: '/events?ml_language=ms' },
  ]
}

function day(instant: number): string {
  return new Date(instant).toISOString().slice(0, 10)
}
