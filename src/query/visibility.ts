import type { ContentRecord } from '../content/store.ts'
import { toList } from '../schema/validators.ts'

/** The statuses a list shows: `publish` for anonymous callers, every status but trash for editors (§7.6). */
export function listStatuses(requested: unknown, canSeeDrafts: boolean): { statuses: Set<string>; label: string } {
  if (requested !== undefined) {
    const list = toList(requested)
    return { statuses: new Set(list), label: list.join(',') }
  }
  if (!canSeeDrafts) return { statuses: new Set(['publish']), label: 'publish' }
  return { statuses: new Set(['publish', 'future', 'draft', 'pending', 'private']), label: 'any' }
}

/** A record's status; hand-written files without one are published. */
export function statusOf(record: ContentRecord): string {
  const status = record.source.data.status
  return typeof status === 'string' ? status : 'publish'
}
