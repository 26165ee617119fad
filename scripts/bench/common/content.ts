import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import {
  bodyPlan,
  CATEGORIES,
  DAY,
  distinct,
  document,
  type Fields,
  markdown,
  ORGANIZERS,
  type OutFile,
  pick,
  slugify,
  TAGS,
  VENUES,
  wall,
} from './documents.ts'
import { seriesFiles } from './series-content.ts'
import { FREE, LANGS, NAMES, SENTENCES, SLUG_PREFIX, TITLE_WORDS, seeded, type BenchLang } from './words.ts'

/** What was written: where, how much, and an event that is sure to be served. */
export interface Corpus {
  dir: string
  files: number
  bytes: number
  events: number
  /** A published, upcoming event with venue and organizers, for the single-event target. */
  sampleEventId: number
  /** Every published event's id and English slug (others are `<prefix>-<id - 1000>`), for the varied mix. */
  published: { id: number; slug: string }[]
  /** First and last day (UTC midnight, ms) an event may start on, so date filters can hit them. */
  span: { first: number; last: number }
  /** Weekly open-ended series written besides the events (ids after theirs); each is served as its occurrences. */
  series: number
  /** The clock the tree was generated at: a tree generated again at it has the same events and span. */
  now: number
}

export { CATEGORIES, ORGANIZERS, TAGS, VENUES } from './documents.ts'

type LinkedKind = 'venues' | 'organizers' | 'categories' | 'tags'

/** Events start from FIRST_DAY days before the run to DAYS days later: a month of past, two years ahead. */
const FIRST_DAY = -30
const DAYS = 725
const WRITE_CONCURRENCY = 64

/**
 * Writes the benchmark content tree (events, venues, organizers, terms in 4 languages) under `dir`, and
 * `seriesCount` weekly series after the events; the events are the same with or without them.
 */
export async function generateContent(
  dir: string,
  eventCount: number,
  now = Date.now(),
  seriesCount = 0,
): Promise<Corpus> {
  const rng = seeded(20_260_101)
  for (const kind of ['events', 'venues', 'organizers', 'categories', 'tags'])
    await mkdir(join(dir, kind), { recursive: true })
  const files: OutFile[] = [
    ...linkedFiles('venues', VENUES, rng),
    ...linkedFiles('organizers', ORGANIZERS, rng),
    ...linkedFiles('categories', CATEGORIES, rng),
    ...linkedFiles('tags', TAGS, rng),
  ]
  let sampleEventId = 0
  const published: Corpus['published'] = []
  for (let n = 0; n < eventCount; n++) {
    const event = eventFiles(1000 + n, rng, now)
    files.push(...event.files)
    if (event.published) published.push({ id: 1000 + n, slug: event.slug })
    // Past the middle, so the sample is neither the first nor the last record of any index.
    if (!sampleEventId && n >= eventCount / 2 && event.upcoming) sampleEventId = 1000 + n
  }
  files.push(...seriesFiles(1000 + eventCount, seriesCount, now))
  const bytes = await writeAll(dir, files)
  const today = Math.floor(now / DAY) * DAY
  const span = { first: today + FIRST_DAY * DAY, last: today + (FIRST_DAY + DAYS - 1) * DAY }
  const counts = { files: files.length, bytes, events: eventCount, series: seriesCount }
  return { dir, ...counts, sampleEventId, published, span, now }
}

/** Bounded parallel writes: tens of thousands of files at once would exhaust file descriptors. */
async function writeAll(dir: string, files: OutFile[]): Promise<number> {
  let next = 0
  let bytes = 0
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++]!
      const data = Buffer.from(file.text, 'utf8')
      bytes += data.length
      await writeFile(join(dir, file.path), data)
    }
  }
  await Promise.all(Array.from({ length: WRITE_CONCURRENCY }, worker))
  return bytes
}

function eventFiles(
  id: number,
  rng: () => number,
  now: number,
): { files: OutFile[]; upcoming: boolean; published: boolean; slug: string } {
  const n = id - 1000
  const [a, b] = [pick(rng, 9), pick(rng, 9)]
  const body = bodyPlan(rng, 2)
  const startDay = FIRST_DAY + Math.floor(rng() * DAYS)
  const start = Math.floor((now + startDay * DAY) / DAY) * DAY + (8 + pick(rng, 25) / 2) * 3_600_000
  const multiDay = rng() < 0.03
  const end = start + (multiDay ? (1 + pick(rng, 3)) * DAY : (1 + pick(rng, 4)) * 3_600_000)
  const status = rng() < 0.01 ? 'draft' : 'publish'
  const zoneRoll = rng()
  const price = rng() < 0.3 ? 0 : 5 * (1 + pick(rng, 20))
  const title = (lang: BenchLang) => `${TITLE_WORDS[lang].first[a]} ${TITLE_WORDS[lang].second[b]} ${n}`
  // The title carries the event's number, so its slug is unique without the id.
  const stem = slugify(title('en'))
  const translated = (lang: BenchLang): Fields => ({
    title: title(lang),
    slug: lang === 'en' ? stem : `${SLUG_PREFIX[lang].events}-${n}`,
    excerpt: SENTENCES[lang][body[0]![0]!],
    cost: price === 0 ? FREE[lang] : `S$${price}`,
  })
  const source: Fields = {
    id,
    ...translated('en'),
    status,
    date: wall(now - pick(rng, 365) * DAY),
    author: 1,
    start_date: wall(start),
    end_date: wall(end),
    timezone: zoneRoll < 0.85 ? 'Asia/Singapore' : zoneRoll < 0.93 ? 'Europe/London' : 'America/New_York',
    venue: distinct(rng, VENUES, 1),
    organizer: distinct(rng, ORGANIZERS, 1 + pick(rng, 2)),
    categories: distinct(rng, CATEGORIES, 1 + pick(rng, 2)),
    tags: distinct(rng, TAGS, pick(rng, 4)),
    featured: rng() < 0.05,
  }
  const files = LANGS.map((lang) => ({
    path: `events/${stem}.${lang}.md`,
    text: document(lang === 'en' ? source : translated(lang), markdown(lang, body)),
  }))
  return { files, upcoming: status === 'publish' && startDay >= 2, published: status === 'publish', slug: stem }
}

function linkedFiles(kind: LinkedKind, range: { first: number; last: number }, rng: () => number): OutFile[] {
  const out: OutFile[] = []
  for (let id = range.first; id <= range.last; id++) {
    const word = pick(rng, 9)
    const body = bodyPlan(rng, 1)
    const name = (lang: BenchLang) => `${TITLE_WORDS[lang].first[word]} ${NAMES[lang][kind]} ${id}`
    const stem = slugify(name('en'))
    const nameField = kind === 'venues' ? 'venue' : kind === 'organizers' ? 'organizer' : 'name'
    for (const lang of LANGS) {
      const fields: Fields = lang === 'en' ? { id } : {}
      fields[nameField] = name(lang)
      fields.slug = lang === 'en' ? stem : `${SLUG_PREFIX[lang][kind]}-${id}`
      if (lang === 'en') Object.assign(fields, sourceExtras(kind, id, rng))
      out.push({ path: `${kind}/${stem}.${lang}.md`, text: document(fields, markdown(lang, body)) })
    }
  }
  return out
}

/** The untranslated fields of a linked record's source file. */
function sourceExtras(kind: LinkedKind, id: number, rng: () => number): Fields {
  const date = '2025-06-01 10:00:00'
  if (kind === 'venues') {
    return {
      status: 'publish',
      date,
      address: `${id} Marina Boulevard`,
      city: 'Singapore',
      country: 'Singapore',
      zip: `01${String(8000 + id)}`,
      phone: `+65 6123 ${String(1000 + id)}`,
      geo_lat: round(1.25 + rng() * 0.2),
      geo_lng: round(103.7 + rng() * 0.3),
    }
  }
  if (kind === 'organizers') {
    return {
      status: 'publish',
      date,
      phone: `+65 6555 ${String(1000 + id)}`,
      website: `https://example.org/org-${id}`,
      email: `org${id}@example.org`,
    }
  }
  // Two levels of categories, so parent handling is exercised.
  if (kind === 'categories' && id > 10) return { parent: 1 + (id % 10) }
  return {}
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6
}
