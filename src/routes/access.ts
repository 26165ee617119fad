import { canChangePost, canEditPosts, canManageTerms, type Caller } from '../auth/roles.ts'
import type { Kind, PostKind, TermKind } from '../content/kinds.ts'
import { findBySlug } from '../content/lookup.ts'
import { statusIn } from '../content/statuses.ts'
import type { ContentRecord } from '../content/store.ts'
import { ApiError, apiError } from '../errors.ts'
import type { Access, ApiRequest } from './types.ts'

/** `rest_forbidden`: 401 for nobody, 403 for a caller without the right (docs/compatibility.md §3). */
export function forbidden(caller: Caller | null): ApiError {
  const error = apiError('rest_forbidden')
  return caller ? error : new ApiError(error.code, 401, error.message)
}

/** The record a write's path names, by id or by slug (trashed ones included), if it exists. */
export function pathRecord(kind: Kind, access: Pick<Access, 'view' | 'id' | 'slug'>): ContentRecord | undefined {
  if (access.id !== undefined) return access.view.store.get(kind, access.id)
  if (access.slug !== undefined) return findBySlug(access.view, kind, access.slug) ?? trashedBySlug(kind, access)
  return undefined
}

function trashedBySlug(kind: Kind, access: Pick<Access, 'view' | 'slug'>): ContentRecord | undefined {
  const base = access.slug?.replace(/__trashed$/, '')
  return base
    ? access.view.store.list(kind).find((r) => r.source.data.status === 'trash' && r.source.data.slug === base)
    : undefined
}

/** The owner and status of a post, for the per-record rights. */
export function ownership(record: ContentRecord): { owner: number; status: string } {
  const data = record.source.data
  return { owner: Number(data.author) || 0, status: statusIn(data) }
}

/**
 * The right on the very record the path names, by id and by slug alike (docs/compatibility.md §6): `edit_post` /
 * `delete_post` when it exists; the generic right when it does not, so the handler can say 404.
 */
export function postAccess(kind: PostKind) {
  return (access: Access) => {
    const record = pathRecord(kind, access)
    if (!record) return
    const { owner, status } = ownership(record)
    if (!canChangePost(access.caller, owner, status)) throw forbidden(access.caller)
  }
}

/** Generic rights: posts need `edit_posts`; terms `manage_terms` (categories) or `manage_categories` (tags). */
export const POST_WRITER = (caller: Caller | null) => canEditPosts(caller)
export const termManager = (kind: TermKind) => (caller: Caller | null) => canManageTerms(caller, kind)

/** docs/compatibility.md §14: a stale `If-Match` is 412 with the current ETag; checked inside the write's transaction. */
export function checkIfMatch(request: Pick<ApiRequest, 'ifMatch'>, currentTag: () => string): void {
  if (request.ifMatch === null) return
  const tag = currentTag()
  const tags = request.ifMatch.split(',').map((t) => t.trim())
  if (tags.includes('*') || tags.includes(tag)) return
  throw new ApiError(
    'precondition-failed',
    412,
    'The record has changed since it was read.',
    {},
    { headers: { ETag: tag } },
  )
}
