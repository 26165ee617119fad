import { canPublish, type Caller } from '../auth/roles.ts'
import { parseTime } from '../time/parse.ts'
import { instantToWall } from '../time/zone.ts'

/**
 * The status a write stores (§10.2): as asked by those who may publish (`publish` by default);
 * contributors' `publish` and `future` become `pending`, and they default to `draft`. A
 * publication date in the future turns `publish` into `future`, and a past one `future` into `publish`.
 */
export function writtenStatus(asked: unknown, caller: Caller | null, published: number | undefined, now: number, fallback?: string): string {
  let status = typeof asked === 'string' ? asked : fallback ?? (canPublish(caller) ? 'publish' : 'draft')
  if (!canPublish(caller) && (status === 'publish' || status === 'future')) status = 'pending'
  if (published !== undefined && status === 'publish' && published > now) status = 'future'
  if (published !== undefined && status === 'future' && published <= now) status = 'publish'
  return status
}

/** `date` (site time) or `date_utc` (UTC) as the stored publication date, a site-local wall clock. */
export function publicationDate(params: Record<string, unknown>, siteZone: string, now: number): { wall: string; instant: number } | undefined {
  const given = params.date ?? params.date_utc
  if (given === undefined) return undefined
  const parsed = parseTime(given, params.date !== undefined ? siteZone : 'UTC', now)!
  return { wall: instantToWall(parsed.instant, siteZone), instant: parsed.instant }
}
