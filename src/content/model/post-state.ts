// What a post's front matter says of its state: its status, its owner, whether a password protects
// it. The one place these facts are read, for the store's checks, the lists, the rights and the build.

/**
 * The post statuses WordPress registers, the usual ones first: the order a message about a bad
 * `status` lists them in. The one list the content schema, the argument validators and the lists'
 * visibility all read.
 */
export const STATUSES: readonly string[] = ['publish', 'draft', 'pending', 'private', 'future', 'trash']

/** What a record without a `status` is: hand-written files are published unless they say otherwise. */
export const DEFAULT_STATUS = 'publish'

/** A record's status from its front matter: the `status` it names, else `publish`. */
export function statusIn(data: Readonly<Record<string, unknown>>): string {
  const status = data.status
  return typeof status === 'string' ? status : DEFAULT_STATUS
}

/**
 * The status a post's rights are decided by: its status, but a post in the trash as the status it had before
 * (`trashed_from`, which a DELETE through the API writes, as WordPress keeps `_wp_trash_meta_status`). A post
 * trashed while published or scheduled stays out of a contributor's reach; one trashed by hand, saying nothing
 * of before, counts as unpublished, as in WordPress.
 */
export function rightsStatusIn(data: Readonly<Record<string, unknown>>): string {
  const status = statusIn(data)
  const before = data.trashed_from
  return status === 'trash' && (before === 'publish' || before === 'future') ? before : status
}

/** A post's author id, from its front matter: 0 for none. */
export function ownerIn(data: Readonly<Record<string, unknown>>): number {
  return Number(data.author) || 0
}

/** Whether a password protects a post (a non-empty `password`). */
export function isProtected(data: Readonly<Record<string, unknown>>): boolean {
  return typeof data.password === 'string' && data.password !== ''
}

/**
 * Drafts and pending posts: not yet approved, so WordPress gives them no publication date of their
 * own, and The Events Calendar's `has_events` does not count them.
 */
export function isDraftStatus(status: unknown): boolean {
  return status === 'draft' || status === 'pending'
}

/** Whether an event adds to its terms' counts: while it is published and not protected. */
export function countsForTerms(data: Readonly<Record<string, unknown>>): boolean {
  return statusIn(data) === 'publish' && !isProtected(data)
}

/** What WordPress adds to a trashed post's slug while it sits in the trash (and takes off when it comes back). */
export const TRASHED_SUFFIX = '__trashed'
