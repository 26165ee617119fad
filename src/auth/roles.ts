import type { Kind } from '../content/model/kinds.ts'

/** WordPress's five roles as The Events Calendar uses them (docs/compatibility.md §20, §22). */
export const ROLES = ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const

export type Role = (typeof ROLES)[number]

/** Whether a string names a role. */
export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value)
}

/** The caller of a request: a user, or nobody. */
export interface Caller {
  id: number
  login: string
  role: Role
}

const RANK: Record<Role, number> = { administrator: 4, editor: 3, author: 2, contributor: 1, subscriber: 0 }

/**
 * `edit_posts` on events, venues and organizers: contributors and up; also who sees drafts in lists
 * (docs/compatibility.md §20).
 */
export function canEditPosts(caller: Caller | null): boolean {
  return caller !== null && RANK[caller.role] >= RANK.contributor
}

/** `publish_tribe_events`: authors and up publish; contributors' posts are scaled back (docs/compatibility.md §22). */
export function canPublish(caller: Caller | null): boolean {
  return caller !== null && RANK[caller.role] >= RANK.author
}

/** `edit_others_posts`: editors and administrators act on anyone's records. */
export function canEditOthers(caller: Caller | null): boolean {
  return caller !== null && RANK[caller.role] >= RANK.editor
}

/**
 * `edit_post` / `delete_post` on one post, as WordPress decides: editors on any; authors on their own;
 * contributors on their own that are not published (nor scheduled).
 */
export function canChangePost(caller: Caller | null, owner: number, status: string): boolean {
  if (!caller || !canEditPosts(caller)) return false
  if (canEditOthers(caller)) return true
  if (owner !== caller.id) return false
  return canPublish(caller) || (status !== 'publish' && status !== 'future')
}

/** Managing terms: categories need `publish_tribe_events` (author+), tags `manage_categories` (editor+). */
export function canManageTerms(caller: Caller | null, kind: Kind): boolean {
  return kind === 'tags' ? canEditOthers(caller) : canPublish(caller)
}

/** `DELETE …?force=true`: deleting files for good is for editors and administrators (docs/compatibility.md §8). */
export function canDeleteForGood(caller: Caller | null): boolean {
  return canEditOthers(caller)
}
