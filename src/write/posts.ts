import { canEditOthers, canPublish, type Caller } from '../auth/roles.ts'
import { apiError } from '../errors.ts'
import { parseTime } from '../time/parse.ts'
import { instantToWall } from '../time/zone.ts'

/** Statuses only those who may publish may write; a contributor asking for one gets `pending`. */
const PUBLISHING = new Set(['publish', 'future', 'private'])

/**
 * The status a write stores (docs/compatibility.md §22): as asked by those who may publish (`publish` by default);
 * contributors' `publish`, `future` and `private` become `pending` (WordPress's own rule for
 * `private`; the reference keeps it), and they default to `draft`. A publication date in the
 * future turns `publish` into `future`, and a past one `future` into `publish`.
 */
export function writtenStatus(
  asked: unknown,
  caller: Caller | null,
  published: number | undefined,
  now: number,
  fallback?: string,
): string {
  let status = typeof asked === 'string' ? asked : (fallback ?? (canPublish(caller) ? 'publish' : 'draft'))
  if (!canPublish(caller) && PUBLISHING.has(status)) status = 'pending'
  if (published !== undefined && status === 'publish' && published > now) status = 'future'
  if (published !== undefined && status === 'future' && published <= now) status = 'publish'
  return status
}

/**
 * `author` naming another user needs `edit_others_posts` (editors, administrators): others get
 * WordPress's 403 `rest_cannot_edit_others`. Naming oneself is always fine.
 */
export function checkAuthor(
  params: Record<string, unknown>,
  given: Set<string>,
  caller: Caller,
  creating: boolean,
): void {
  if (!given.has('author') || params.author === undefined || params.author === null) return
  if (Number(params.author) === caller.id || canEditOthers(caller)) return
  throw apiError('rest_cannot_edit_others', [creating ? 'create' : 'update'])
}

/** `date` (site time) or `date_utc` (UTC) as the stored publication date, a site-local wall clock. */
export function publicationDate(
  params: Record<string, unknown>,
  siteZone: string,
  now: number,
): { wall: string; instant: number } | undefined {
  const given = params.date ?? params.date_utc
  if (given === undefined) return undefined
  const parsed = parseTime(given, params.date !== undefined ? siteZone : 'UTC', now)!
  return { wall: instantToWall(parsed.instant, siteZone), instant: parsed.instant }
}
