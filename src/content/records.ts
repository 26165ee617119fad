import { join } from 'node:path'
import { showValue } from './schema/show.ts'
import { isTimeZone, isWallClock, WALL_CLOCK } from '../time/zone.ts'
import { writeFileAtomic } from '../disk/atomic.ts'
import { readTextOrNull } from './read.ts'
import type { Kind } from './kinds.ts'
import type { FileEntry } from './store.ts'

const TEXT_FIELDS = new Set([
  'slug',
  'excerpt',
  'address',
  'city',
  'country',
  'province',
  'state',
  'zip',
  'phone',
  'stateprovince',
  'password',
  'description',
])
const ID_LISTS = new Set(['venue', 'organizer', 'categories', 'tags'])

/** Groups entries by record, in path order, so the first file of a duplicate id wins. */
export function loadAll(entries: FileEntry[]): [Kind, string, FileEntry[]][] {
  const groups = new Map<string, FileEntry[]>()
  for (const entry of [...entries].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    const key = `${entry.path.split('/')[0]}/${stemOf(entry.path)}`
    const group = groups.get(key)
    if (group) group.push(entry)
    else groups.set(key, [entry])
  }
  return [...groups].map(([key, files]) => {
    const [kind, stem] = key.split('/') as [Kind, string]
    return [kind, stem, files]
  })
}

export function stemOf(path: string): string {
  return path.slice(path.indexOf('/') + 1).split('.')[0]!
}

/**
 * Hand-written YAML gives numbers where text is meant (`zip: 012345`, which YAML reads as the octal
 * number 5349) and single ids where lists are meant. A text field keeps the text as the editor
 * wrote it (`written`, from the file), so leading zeros, `0x…` and `1_000` survive.
 */
export function normalize(
  data: Record<string, unknown>,
  written: Record<string, string> = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(data)) {
    if (TEXT_FIELDS.has(key) && typeof value === 'number') out[key] = written[key] ?? String(value)
    else if (ID_LISTS.has(key) && typeof value === 'number') out[key] = [value]
    else out[key] = value
  }
  return out
}

/**
 * Event checks the schema cannot express: a real time zone, real dates, and an end after the
 * start. A date the schema already refuses (missing, not YYYY-MM-DD HH:MM:SS) is its to report.
 */
export function checkEvent(kind: Kind, data: Record<string, unknown>): string[] {
  if (kind !== 'events') return []
  const problems: string[] = []
  if (typeof data.timezone === 'string' && !isTimeZone(data.timezone)) {
    problems.push(
      `timezone: ${showValue(data.timezone)} is not an IANA time zone; use a name such as Europe/London or Asia/Kuala_Lumpur`,
    )
  }
  const start = wallClockOf(data.start_date)
  const end = wallClockOf(data.end_date)
  if (start && !isWallClock(start))
    problems.push(`start_date: ${showValue(start)} is not a real date and time (no such day, hour or minute)`)
  if (end && !isWallClock(end))
    problems.push(`end_date: ${showValue(end)} is not a real date and time (no such day, hour or minute)`)
  // Wall clocks of one zone compare as text: YYYY-MM-DD HH:MM:SS sorts in time order.
  if (start && end && isWallClock(start) && isWallClock(end) && end.replace('T', ' ') < start.replace('T', ' ')) {
    problems.push(
      `end_date: ${showValue(end)} is before start_date ${showValue(start)}; an event cannot end before it starts`,
    )
  }
  return problems
}

/** A value written as a wall clock (YYYY-MM-DD HH:MM[:SS]), real or not; undefined for anything else. */
function wallClockOf(value: unknown): string | undefined {
  return typeof value === 'string' && WALL_CLOCK.test(value) ? value : undefined
}

export const HIGH_WATER_FILE = '.ids.yaml'

/** The highest ids ever used, from content/.ids.yaml (0 when there is none). */
export function readHighWater(dir: string): { post: number; term: number } {
  const text = readTextOrNull(join(dir, HIGH_WATER_FILE)) ?? ''
  const read = (space: string) => Number(new RegExp(`^${space}:\\s*(\\d+)`, 'm').exec(text)?.[1] ?? 0)
  return { post: read('post'), term: read('term') }
}

/** Remembers the highest ids ever used, so ids of records deleted for good are never handed out again. */
export function writeHighWater(dir: string, highWater: { post: number; term: number }): Promise<void> {
  return writeFileAtomic(
    join(dir, HIGH_WATER_FILE),
    `# Highest ids ever used; Almanac never hands them out again.\npost: ${highWater.post}\nterm: ${highWater.term}\n`,
  )
}
