import { isDraftStatus, isProtected, statusIn } from './post-state.ts'
import { instantToWall, wallToInstant } from '../../time/zone.ts'
import type { ContentRecord } from './record-types.ts'

/** An event's dates: local wall clock as served, and the instants lists filter and sort on. */
export interface EventTimes {
  timezone: string
  startWall: string
  endWall: string
  start: number
  end: number
}

/** A record's publication and modification dates, as `date`, `date_utc`, `modified`, `modified_utc`. */
export interface PostDates {
  date: string
  dateUtc: string
  modified: string
  modifiedUtc: string
  /** The publication instant, the second sort key of event lists. */
  published: number
}

// What a record and a zone give, kept per record object and zone: records are immutable, and the
// zone is an argument, so two apps over one store with different site zones each find their own
// (a module constant, as an answer here is a pure function of its inputs; it goes with the record).
// A record is nearly always read in one zone, so its first zone's value is kept alone, and a map
// made only for a second: a map per record was ~146 bytes of table each, 2.9 MB for 10,000 events.
type Kept<T> = { zone: string; value: T; others?: Map<string, T> }
const times = new WeakMap<ContentRecord, Kept<EventTimes>>()
const dates = new WeakMap<ContentRecord, Kept<PostDates>>()

/** The value kept for a record and a zone, built on first use. */
function keptFor<T>(kept: WeakMap<ContentRecord, Kept<T>>, record: ContentRecord, zone: string, build: () => T): T {
  const found = kept.get(record)
  if (!found) {
    const value = build()
    kept.set(record, { zone, value })
    return value
  }
  if (found.zone === zone) return found.value
  let value = found.others?.get(zone)
  if (value === undefined) (found.others ??= new Map()).set(zone, (value = build()))
  return value
}
const UNSET = '0000-00-00 00:00:00'

/** Reads an event's dates in its zone (site zone when it names none); all-day events span whole days. */
export function eventTimes(record: ContentRecord, siteZone: string): EventTimes {
  return keptFor(times, record, siteZone, () => {
    const data = record.source.data
    const timezone = typeof data.timezone === 'string' && data.timezone !== '' ? data.timezone : siteZone
    let startWall = toSeconds(String(data.start_date))
    let endWall = toSeconds(String(data.end_date))
    if (data.all_day === true) {
      startWall = `${startWall.slice(0, 10)} 00:00:00`
      endWall = `${endWall.slice(0, 10)} 23:59:59`
    }
    return {
      timezone,
      startWall,
      endWall,
      start: wallToInstant(startWall, timezone),
      end: wallToInstant(endWall, timezone),
    }
  })
}

/**
 * Publication dates from front matter (site zone). A source without `date` is dated by the commit
 * that added it to git (the same on every clone), else by its mtime; `almanac check --fix` writes it down.
 */
export function postDates(record: ContentRecord, siteZone: string): PostDates {
  return keptFor(dates, record, siteZone, () => {
    const data = record.source.data
    const date =
      typeof data.date === 'string'
        ? toSeconds(data.date)
        : instantToWall(Math.floor(record.source.undatedMs / 1000) * 1000, siteZone)
    const published = wallToInstant(date, siteZone)
    // A clone gives every file a new mtime, so `modified` falls back to the publication date, not the file.
    const modified = typeof data.modified === 'string' ? toSeconds(data.modified) : date
    // WordPress leaves a draft's GMT date unset until it is published; clients see zeros.
    const unpublished = isDraftStatus(data.status)
    const dateUtc =
      typeof data.date_utc === 'string'
        ? toSeconds(data.date_utc)
        : unpublished
          ? UNSET
          : instantToWall(published, 'UTC')
    // Most records have no `modified`: its instant is the publication's, converted once (10,000 events load).
    const modifiedUtc = instantToWall(modified === date ? published : wallToInstant(modified, siteZone), 'UTC')
    return { date, dateUtc, modified, modifiedUtc, published }
  })
}

/** `2026-07-14T19:00` → `2026-07-14 19:00:00`. */
function toSeconds(wall: string): string {
  const text = wall.replace('T', ' ')
  return text.length === 16 ? `${text}:00` : text
}

/** A relation field as a list of ids. */
export function idList(value: unknown): number[] {
  if (!Array.isArray(value)) return Number.isInteger(value) ? [value as number] : []
  // A copy of its own length: `filter` grows its answer as it goes, 17 places for one id (1.45 MB for
  // 10,000 events' venues, as much again for their organizers).
  return onceEach(value.every(Number.isInteger) ? value.slice() : value.filter((v) => Number.isInteger(v)))
}

/**
 * Ids once each, in the order first named: a record is linked to a venue or term once, however often its file
 * names it. A hostile `tags: [3, 3, …]` of 4 MB embedded the tag a million times in every answer showing the
 * event (seconds each, then 500s past V8's longest string).
 */
function onceEach(ids: number[]): number[] {
  if (ids.length < 2) return ids
  if (ids.length <= 8) {
    for (let i = 1; i < ids.length; i++) if (ids.lastIndexOf(ids[i]!, i - 1) >= 0) return [...new Set(ids)]
    return ids
  }
  const unique = new Set(ids)
  return unique.size === ids.length ? ids : [...unique]
}

/** An event's categories and tags, once each. */
export function termIdsOf(record: ContentRecord): number[] {
  const data = record.source.data
  return [...new Set([...idList(data.categories), ...idList(data.tags)])]
}

/** Whether an event adds to the counts of its categories and tags: published and not protected. */
export function countsInTerms(record: ContentRecord): boolean {
  const data = record.source.data
  return statusIn(data) === 'publish' && !isProtected(data)
}
