// The generated tree's series (BENCH_SERIES): weekly, open-ended source events in 4 languages like the other
// events, each served as its occurrences up to the horizon. One in ten excludes an upcoming week (exdate) and moves
// the next one a day later with a title of its own (an override, translated in every language).
import {
  bodyPlan,
  CATEGORIES,
  DAY,
  distinct,
  document,
  type Fields,
  HOUR,
  markdown,
  ORGANIZERS,
  type OutFile,
  pick,
  slugify,
  TAGS,
  VENUES,
  wall,
} from './documents.ts'
import { FREE, LANGS, SENTENCES, SERIES_WORDS, SLUG_PREFIX, TITLE_WORDS, seeded, type BenchLang } from './words.ts'

/** Zones of the series: the site's, two with DST (London, New York), and one without. */
const ZONES = ['Asia/Singapore', 'Europe/London', 'America/New_York', 'Asia/Kuala_Lumpur']
/** RRULE weekdays in `Date.getUTCDay()` order. */
const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA']
/** Every how many series one has an exdate and an override. */
const CHANGED_EVERY = 10

/** The files of `count` series with ids from `firstId`, drawn from their own seed (the events do not move). */
export function seriesFiles(firstId: number, count: number, now: number): OutFile[] {
  const rng = seeded(20_260_114)
  return Array.from({ length: count }, (_, k) => oneSeries(firstId + k, k, rng, now)).flat()
}

/** One weekly series: it began on a random weekday in the past year, at a half hour from 08:00 to 20:00. */
function oneSeries(id: number, k: number, rng: () => number, now: number): OutFile[] {
  const [a, b] = [pick(rng, 9), pick(rng, 9)]
  const body = bodyPlan(rng, 2)
  const today = Math.floor(now / DAY)
  const from = today - 7 - pick(rng, 358)
  const weekday = pick(rng, 7)
  const firstDay = from + ((weekday - new Date(from * DAY).getUTCDay() + 7) % 7)
  const start = firstDay * DAY + (8 + pick(rng, 25) / 2) * HOUR
  const end = start + (1 + pick(rng, 3)) * HOUR
  const price = rng() < 0.4 ? 0 : 5 * (1 + pick(rng, 6))
  const title = (lang: BenchLang) =>
    `${TITLE_WORDS[lang].first[a]} ${TITLE_WORDS[lang].second[b]} ${SERIES_WORDS[lang].weekly} ${k}`
  const stem = slugify(title('en'))
  const translated = (lang: BenchLang): Fields => ({
    title: title(lang),
    slug: lang === 'en' ? stem : `${SLUG_PREFIX[lang].events}-weekly-${k}`,
    excerpt: SENTENCES[lang][body[0]![0]!],
    cost: price === 0 ? FREE[lang] : `S$${price}`,
  })
  // An upcoming week excluded and the one after it moved, so both show in the default list.
  const weeksPast = Math.ceil((today - firstDay) / 7)
  const excluded = weeksPast + 1 + pick(rng, 8)
  const moved = excluded + 1 + pick(rng, 8)
  const changed = k % CHANGED_EVERY === 0
  const key = day(start + moved * 7 * DAY)
  const overrides = (fields: Fields): Fields | undefined => (changed ? { [key]: fields } : undefined)
  const source: Fields = {
    id,
    ...translated('en'),
    status: 'publish',
    date: wall(start - pick(rng, 30) * DAY),
    author: 1,
    start_date: wall(start),
    end_date: wall(end),
    timezone: ZONES[pick(rng, ZONES.length)]!,
    venue: distinct(rng, VENUES, 1),
    organizer: distinct(rng, ORGANIZERS, 1),
    categories: distinct(rng, CATEGORIES, 1 + pick(rng, 2)),
    tags: distinct(rng, TAGS, pick(rng, 3)),
    recurrence: {
      rrule: `FREQ=WEEKLY;BYDAY=${WEEKDAYS[weekday]}`,
      exdate: changed ? [day(start + excluded * 7 * DAY)] : undefined,
    },
    overrides: overrides({
      start_date: wall(start + (moved * 7 + 1) * DAY),
      end_date: wall(end + (moved * 7 + 1) * DAY),
      title: `${title('en')} (${SERIES_WORDS.en.moved})`,
    }),
  }
  return LANGS.map((lang) => ({
    path: `events/${stem}.${lang}.md`,
    text: document(
      lang === 'en'
        ? source
        : { ...translated(lang), overrides: overrides({ title: `${title(lang)} (${SERIES_WORDS[lang].moved})` }) },
      markdown(lang, body),
    ),
  }))
}

function day(instant: number): string {
  return new Date(instant).toISOString().slice(0, 10)
}
