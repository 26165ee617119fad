import { isTrueWord } from '../text.ts'
import { parseTime } from '../time/parse.ts'
import { dayEdge, instantToWall } from '../time/zone.ts'
import type { QueryScope } from './scope.ts'

export type DateKey = 'start_date' | 'end_date' | 'starts_before' | 'starts_after' | 'ends_before' | 'ends_after'
export const DATE_KEYS: DateKey[] = [
  'start_date',
  'end_date',
  'starts_before',
  'starts_after',
  'ends_before',
  'ends_after',
]
export const RELATIVE: DateKey[] = ['starts_before', 'starts_after', 'ends_before', 'ends_after']

/** A date filter resolved to an instant, with the wall clock the links show. */
interface Bound {
  instant: number
  wall: string
}
export type Bounds = Partial<Record<DateKey, Bound>>

/** start ≥ start_date, end ≤ end_date, strict inequalities for the relative bounds, as closed ranges in ms. */
export function ranges(b: Bounds) {
  return {
    startMin: Math.max(b.start_date?.instant ?? -Infinity, (b.starts_after?.instant ?? -Infinity) + 1),
    startMax: (b.starts_before?.instant ?? Infinity) - 1,
    endMin: (b.ends_after?.instant ?? -Infinity) + 1,
    endMax: Math.min(b.end_date?.instant ?? Infinity, (b.ends_before?.instant ?? Infinity) - 1),
  }
}

/**
 * Day-aligned unless `strict_dates`; the default window applies unless a relative bound is sent
 * (docs/compatibility.md §30).
 */
export function resolveDates(values: Record<string, unknown>, given: Set<string>, scope: QueryScope): Bounds {
  const strict = isTrueWord(values.strict_dates)
  const relative = RELATIVE.some((key) => given.has(key))
  const bounds: Bounds = {}
  for (const key of DATE_KEYS) {
    if (values[key] === undefined) continue
    if (relative && (key === 'start_date' || key === 'end_date') && !given.has(key)) continue
    const parsed = parseTime(values[key], scope.site.timezone, scope.now)!
    bounds[key] = strict
      ? { wall: instantToWall(parsed.instant, scope.site.timezone), instant: parsed.instant }
      : dayEdge(parsed.instant, scope.site.timezone, key !== 'start_date')
  }
  return bounds
}
