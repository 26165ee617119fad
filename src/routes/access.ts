import { canChangePost, canEditPosts, canManageTerms, type Caller } from '../auth/roles.ts'
import type { Kind, PostKind, TermKind } from '../content/model/kinds.ts'
import { findBySlug, findTrashedBySlug } from '../content/lookup.ts'
import { ownerIn, rightsStatusIn, statusIn } from '../content/model/post-state.ts'
import type { ContentRecord } from '../content/store.ts'
import { ApiError } from '../errors.ts'
import type { RequestContext } from '../context/request.ts'
import { forbidden } from '../http/envelope.ts'
import type { PathTarget, RouteInput } from '../http/route.ts'

/** The record a write's path names, by id or by slug (trashed ones included), if it exists. */
export function pathRecord(kind: Kind, ctx: RequestContext, target: PathTarget): ContentRecord | undefined {
  if (target.id !== undefined) return ctx.store.get(kind, target.id)
  if (target.slug !== undefined) return findBySlug(ctx, kind, target.slug) ?? findTrashedBySlug(ctx, kind, target.slug)
  return undefined
}

/**
 * The owner and status of a post, for the per-record rights: an occurrence's are its series'. `rights` is the
 * status the right to change it reads (`rightsStatusIn`: a trashed post as it was before the trash).
 */
export function ownership(record: ContentRecord): { owner: number; status: string; rights: string } {
  const data = (record.series?.parent ?? record).source.data
  return { owner: ownerIn(data), status: statusIn(data), rights: rightsStatusIn(data) }
}

/**
 * The right on the very record the path names, by id and by slug alike (docs/compatibility.md §6): `edit_post` /
 * `delete_post` when it exists; the generic right when it does not, so the handler can say 404.
 */
export function postAccess(kind: PostKind) {
  return (ctx: RequestContext, target: PathTarget) => {
    const record = pathRecord(kind, ctx, target)
    if (!record) return
    const { owner, rights } = ownership(record)
    if (!canChangePost(ctx.caller, owner, rights)) throw forbidden(ctx.caller)
  }
}

/** Generic rights: posts need `edit_posts`; terms `manage_terms` (categories) or `manage_categories` (tags). */
export const POST_WRITER = (caller: Caller | null) => canEditPosts(caller)
export const termManager = (kind: TermKind) => (caller: Caller | null) => canManageTerms(caller, kind)

/**
 * docs/compatibility.md §14: a stale `If-Match` is 412 with the current ETag; checked inside the write's
 * transaction.
 */
export function checkIfMatch(input: Pick<RouteInput, 'ifMatch'>, currentTag: () => string): void {
  if (input.ifMatch === null) return
  const tag = currentTag()
  const tags = input.ifMatch.split(',').map((t) => t.trim())
  if (tags.includes('*') || tags.includes(tag)) return
  throw new ApiError(
    'precondition-failed',
    412,
    'The record has changed since it was read.',
    {},
    { headers: { ETag: tag } },
  )
}
