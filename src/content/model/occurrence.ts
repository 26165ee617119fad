import type { Lang } from '../../languages.ts'
import { WALL_CLOCK } from '../../time/zone.ts'
import { STATUS_FIELDS } from './event-status.ts'
import type { ContentRecord, FileEntry } from './record-types.ts'
import { keyMatches, occurrenceId, toWall } from './recurrence.ts'

// The occurrences of a series as records of their own (docs/recurrence.md): each is the series'
// files with its dates, its id and slug, and whatever the overrides of its original start change.

/** Fields one occurrence may change in the source file, and in a translation (the translatable ones). */
export const OVERRIDABLE = [
  'title',
  'excerpt',
  'description',
  'start_date',
  'end_date',
  'venue',
  'organizer',
  'categories',
  'tags',
  'cost',
  'website',
  'featured',
  'sticky',
  'image',
  'hide_from_listings',
  'show_map',
  'show_map_link',
  // An occurrence may be cancelled, postponed or moved online alone, with its reason (docs/compatibility.md §32).
  ...STATUS_FIELDS,
] as const
export const OVERRIDABLE_IN_TRANSLATION = ['title', 'excerpt', 'cost', 'description', 'event_status_reason'] as const

/** Fields of a series that are the series' alone: an occurrence does not carry them. */
const SERIES_ONLY = ['recurrence', 'overrides'] as const

type Data = Record<string, unknown>

/**
 * The occurrences of `series` that start (originally) at `starts`, in that order; each file's fields are those
 * `used` gives of it (the store leaves out keys no file of its role has).
 */
export function occurrencesOf(
  series: ContentRecord,
  starts: string[],
  used: (file: FileEntry, own: boolean) => Data = (file) => file.data,
): ContentRecord[] {
  const source = series.source.data
  const span = wallMs(toWall(String(source.end_date))) - wallMs(toWall(String(source.start_date)))
  const crowded = crowdedDays(starts)
  return starts.map((start) => {
    const suffix = crowded.has(start.slice(0, 10))
      ? `${start.slice(0, 10)}-${start.slice(11, 13)}${start.slice(14, 16)}`
      : start.slice(0, 10)
    const id = occurrenceId(series.id, start)
    const files = new Map<Lang, FileEntry>()
    for (const [lang, file] of series.files) {
      const own = file === series.source
      const data = withoutSeriesFields(used(file, own))
      const override = overrideFor(file.data.overrides, start)
      for (const key of own ? OVERRIDABLE : OVERRIDABLE_IN_TRANSLATION)
        if (override[key] !== undefined && key !== 'description') data[key] = override[key]
      if (typeof file.data.slug === 'string' && file.data.slug !== '') data.slug = `${file.data.slug}-${suffix}`
      if (own) Object.assign(data, datesOf(start, override, span), { id, post_parent: series.id })
      const body = typeof override.description === 'string' ? override.description : file.body
      files.set(lang, { ...file, data, body })
    }
    return {
      kind: series.kind,
      id,
      stem: `${series.stem}@${start.slice(0, 16).replace(/\D/g, '')}`,
      source: files.get(series.source.lang)!,
      files,
      series: { parent: series, start },
    }
  })
}

/** Whether any file of the series (the source or a translation) has an override for the occurrence at `start`. */
export function isOverridden(series: ContentRecord, start: string): boolean {
  for (const file of series.files.values())
    if (Object.keys(overrideFor(file.data.overrides, start)).length > 0) return true
  return false
}

/** The fields of the override whose key names `start`: a wall clock's before a bare date's. */
function overrideFor(overrides: unknown, start: string): Data {
  if (overrides === null || typeof overrides !== 'object') return {}
  const entries = Object.entries(overrides as Record<string, unknown>).filter(([key]) => keyMatches(key, start))
  entries.sort(([a], [b]) => a.length - b.length)
  return Object.assign({}, ...entries.map(([, value]) => (value && typeof value === 'object' ? value : {})))
}

function withoutSeriesFields(data: Data): Data {
  const copy = { ...data }
  for (const key of SERIES_ONLY) delete copy[key]
  return copy
}

/** The occurrence's dates: the override's, else its start and the series' span (wall-clock time). */
function datesOf(start: string, override: Data, span: number): Data {
  const startDate = typeof override.start_date === 'string' ? toWall(override.start_date) : start
  const endDate = typeof override.end_date === 'string' ? toWall(override.end_date) : wallOf(wallMs(startDate) + span)
  return { start_date: startDate, end_date: endDate }
}

/** Days with more than one occurrence: their occurrences' slugs carry the time too. */
function crowdedDays(starts: string[]): Set<string> {
  const crowded = new Set<string>()
  for (let i = 1; i < starts.length; i++)
    if (starts[i]!.slice(0, 10) === starts[i - 1]!.slice(0, 10)) crowded.add(starts[i]!.slice(0, 10))
  return crowded
}

/** A wall clock read as if it were UTC, in ms: wall-clock arithmetic without a zone. */
function wallMs(wall: string): number {
  const m = WALL_CLOCK.exec(wall)!
  return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0))
}

function wallOf(ms: number): string {
  const iso = new Date(ms).toISOString()
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`
}
