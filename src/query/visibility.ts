import type { ContentRecord } from '../content/store.ts'
import { STATUSES, statusIn, ownerIn } from '../content/model/post-state.ts'
import { toList } from '../args/validators.ts'
import { mayRead, type Reader } from '../context/request.ts'
import { isLocked } from '../serialize/protect.ts'

/** What a list may show a caller: the statuses asked for (or the default), and whose unpublished records. */
export interface ListVisibility {
  statuses: Set<string>
  /** The effective `status` the links carry. */
  label: string
  reader: Reader
}

const ANY = STATUSES.filter((status) => status !== 'trash')

/**
 * The statuses a list shows (docs/compatibility.md §20): `publish` for anonymous callers and subscribers, every status
 * but trash for anyone who may write posts. Which unpublished records among those a caller sees is
 * WordPress's `perm=readable`: editors everyone's, contributors and authors only their own.
 */
export function listVisibility(requested: unknown, reader: Reader): ListVisibility {
  if (requested !== undefined) {
    const list = toList(requested)
    return { statuses: new Set(list), label: list.join(','), reader }
  }
  if (reader === 'none') return { statuses: new Set(['publish']), label: 'publish', reader }
  return { statuses: new Set(ANY), label: 'any', reader }
}

/** Whether a post of this status and owner is in a list of this visibility. */
export function isListed(visibility: ListVisibility, status: string, owner: number): boolean {
  return visibility.statuses.has(status) && mayRead(visibility.reader, status, owner)
}

/** A record's status; hand-written files without one are published. */
export function statusOf(record: ContentRecord): string {
  return statusIn(record.source.data)
}

/** A record's author id (0 for none). */
export function ownerOf(record: ContentRecord): number {
  return ownerIn(record.source.data)
}

/** Whether a caller may read a post at all (its single read would not be 403). */
export function isReadable(record: ContentRecord, reader: Reader): boolean {
  return mayRead(reader, statusOf(record), ownerOf(record))
}

/** Whether a post's password hides its fields from this request (no `?password=`, or the wrong one). */
export function isHidden(record: ContentRecord, password: string | undefined): boolean {
  return isLocked(record.source.data.password, password)
}

/**
 * Whether the links of an event (venue, organizers, terms) are visible to this request: the
 * caller may read it, and it is not blanked by a password they did not give (docs/compatibility.md §20, §21).
 */
export function linksVisible(record: ContentRecord | undefined, reader: Reader, password: string | undefined): boolean {
  return record !== undefined && isReadable(record, reader) && !isHidden(record, password)
}
