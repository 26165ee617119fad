import type { Role, User } from './harness.ts'

/**
 * A simple model of who may see and change what (docs/compatibility.md §3, §6, §8, §20, §22; issue 10):
 * the records (kind, id, owner, status, links) and the rules, written once, plainly.
 */
export type PostKind = 'events' | 'venues' | 'organizers'
export type TermKind = 'categories' | 'tags'
export type Kind = PostKind | TermKind
export const POST_KINDS: PostKind[] = ['events', 'venues', 'organizers']
export const TERM_KINDS: TermKind[] = ['categories', 'tags']
export type Lang = 'en' | 'ms' | 'zh-hans'

export interface PostRecord {
  kind: PostKind
  id: number
  owner: number
  status: string
  /** The slug in the default language, as the last answer showed it. */
  slug: string
  name: string
  /** Venues and organizers: the one field the model follows for "was it written onto?". */
  phone: string
  venue: number[]
  organizer: number[]
  categories: number[]
  tags: number[]
  /** A password-protected event's password ('' for none): no single read without it. */
  password: string
  /** In the trash: the status it had before (`trashed_from`, as WordPress keeps `_wp_trash_meta_status`). */
  trashedFrom?: string
}

export interface TermRecord {
  kind: TermKind
  id: number
  name: string
}

export interface Model {
  posts: Map<number, PostRecord>
  terms: Map<number, TermRecord>
  /** Ids deleted for good, by kind: they must answer as unknown, and never come back. */
  gone: Map<Kind, number[]>
  langs: Set<Lang>
  /** Makes every written value different from the last. */
  counter: number
}

/**
 * For exploring past known defects only (never in CI): MODEL_AVOID=author,reuse,inline,private,lists,rollback,password
 * leaves out inputs that meet them (another author, same-named linked records, inline records,
 * contributors asking for private, contributors' and authors' lists, writes that must roll back,
 * passwords set on write).
 */
export const AVOID = new Set((process.env.MODEL_AVOID ?? '').split(',').filter(Boolean))

const RANK: Record<Role, number> = { administrator: 4, editor: 3, author: 2, contributor: 1, subscriber: 0 }

export const canEditPosts = (u: User | null) => u !== null && RANK[u.role] >= 1
export const canPublish = (u: User | null) => u !== null && RANK[u.role] >= 2
export const canEditOthers = (u: User | null) => u !== null && RANK[u.role] >= 3
/** Categories: `publish_tribe_events` (author and up); tags: `manage_categories` (editor and up). */
export const canManageTerms = (u: User | null, kind: TermKind) => (kind === 'tags' ? canEditOthers(u) : canPublish(u))

/** `edit_post` / `delete_post`: editors any; authors their own; contributors their own unpublished. */
export function canChange(u: User | null, record: PostRecord): boolean {
  if (!canEditPosts(u)) return false
  if (canEditOthers(u)) return true
  if (record.owner !== u!.id) return false
  // A post in the trash is judged by the status it had before: trashed while published, it stays out of reach.
  const status = record.status === 'trash' && record.trashedFrom ? record.trashedFrom : record.status
  return canPublish(u) || (status !== 'publish' && status !== 'future')
}

/** `read_post`: published records for everyone; others for editors and their owners. */
export function canRead(u: User | null, record: PostRecord): boolean {
  if (record.status === 'publish') return true
  return canEditPosts(u) && (canEditOthers(u) || record.owner === u!.id)
}

/** In a list (WordPress `perm=readable`): never trash; published, or readable by the caller. */
export function listed(u: User | null, record: PostRecord, statuses?: string[]): boolean {
  if (record.status === 'trash') return false
  if (statuses && !statuses.includes(record.status)) return false
  return canRead(u, record)
}

/**
 * The status a write stores (docs/compatibility.md §22), or `undefined` when the model allows several answers:
 * a contributor asking for `private` (issue 10: contributors may not set it; refused, or scaled back).
 */
export function writtenStatus(asked: string | undefined, u: User | null, futureDate = false): string | undefined {
  // A publication date in the future schedules what would be published (WordPress `future`).
  if (canPublish(u)) return futureDate && (asked ?? 'publish') === 'publish' ? 'future' : (asked ?? 'publish')
  if (asked === 'private') return undefined
  if (asked === 'publish' || asked === 'future') return 'pending'
  return asked ?? 'draft'
}

export function emptyModel(): Model {
  return { posts: new Map(), terms: new Map(), gone: new Map(), langs: new Set(['en']), counter: 0 }
}

export function postsOf(model: Model, kind: PostKind): PostRecord[] {
  return [...model.posts.values()].filter((r) => r.kind === kind).sort((a, b) => a.id - b.id)
}

export function termsOf(model: Model, kind: TermKind): TermRecord[] {
  return [...model.terms.values()].filter((r) => r.kind === kind).sort((a, b) => a.id - b.id)
}

/** Picks one of `items` by a generated number, or none when there are none. */
export function pick<T>(items: T[], n: number): T | undefined {
  return items.length === 0 ? undefined : items[n % items.length]
}

/** A live record of the kind with this name (any case), as reuse-by-name finds it. */
export function sameNamed(model: Model, kind: PostKind, name: string): PostRecord[] {
  return postsOf(model, kind).filter((r) => r.status !== 'trash' && r.name.toLowerCase() === name.toLowerCase())
}

export function termNamed(model: Model, kind: TermKind, name: string): TermRecord | undefined {
  return termsOf(model, kind).find((t) => t.name.toLowerCase() === name.toLowerCase())
}

/** Whether an id was ever given in its id space (live or deleted for good). */
export function idTaken(model: Model, space: 'post' | 'term', id: number): boolean {
  if (space === 'post') return model.posts.has(id) || POST_KINDS.some((k) => model.gone.get(k)?.includes(id))
  return model.terms.has(id) || TERM_KINDS.some((k) => model.gone.get(k)?.includes(id))
}

/** Forgets a record deleted for good, and takes it out of every event that links it. */
export function forget(model: Model, kind: Kind, id: number): void {
  if (kind === 'events' || kind === 'venues' || kind === 'organizers') model.posts.delete(id)
  else model.terms.delete(id)
  model.gone.set(kind, [...(model.gone.get(kind) ?? []), id])
  unlinkEverywhere(model, kind, id)
}

/** Trashing a venue or organizer, or deleting a term, takes it out of every event (Cest:VenueDeletion). */
export function unlinkEverywhere(model: Model, kind: Kind, id: number): void {
  const field = ({ venues: 'venue', organizers: 'organizer', categories: 'categories', tags: 'tags' } as const)[
    kind as Exclude<Kind, 'events'>
  ]
  if (!field) return
  for (const event of postsOf(model, 'events')) event[field] = event[field].filter((other) => other !== id)
}
