import { statusIn } from '../content/model/post-state.ts'
import { type Caller, canPublish } from '../auth/roles.ts'
import type { PostKind } from '../content/model/kinds.ts'
import type { ContentRecord } from '../content/store.ts'
import { apiError } from '../errors.ts'
import type { WriteContext } from './transaction.ts'

/** The field of an event that links a venue or an organizer. */
const LINK_FIELD = { venues: 'venue', organizers: 'organizer' } as const
const IN_TRASH = {
  events: 'event-is-in-trash',
  venues: 'venue-is-in-trash',
  organizers: 'organizer-is-in-trash',
} as const

/**
 * DELETE without `force`: the post goes to the trash (a second time is 410), a venue or organizer out of
 * every event first (docs/compatibility.md §8).
 */
export async function trashPost(kind: PostKind, record: ContentRecord, ctx: WriteContext): Promise<ContentRecord> {
  if (record.source.data.status === 'trash') throw apiError(IN_TRASH[kind])
  if (kind !== 'events') await unlinkFromEvents(LINK_FIELD[kind], record.id, ctx)
  // What it was goes with it (`trashed_from`, WordPress's `_wp_trash_meta_status`): the rights to change a post
  // in the trash are those it had before (rightsStatusIn).
  const data = { ...record.source.data, status: 'trash', trashed_from: statusIn(record.source.data) }
  return (await ctx.tx.commit(kind, record.stem, { [record.source.lang]: { data, body: record.source.body } }))!
}

/** DELETE with `force`: the post is deleted for good, a venue or organizer out of every event first. */
export async function deletePost(kind: PostKind, record: ContentRecord, ctx: WriteContext): Promise<void> {
  if (kind !== 'events') await unlinkFromEvents(LINK_FIELD[kind], record.id, ctx)
  await deleteFiles(record, ctx)
}

/** Removes every file of a record, in every language. */
export async function deleteFiles(record: ContentRecord, ctx: WriteContext): Promise<void> {
  await ctx.tx.commit(
    record.kind,
    record.stem,
    Object.fromEntries([...record.files.keys()].map((lang) => [lang, null])),
  )
}

/**
 * Takes an id out of a list field (`venue`, `organizer`, `categories`, `tags`) of every event that has it; a
 * list left empty goes (Cest:VenueDeletion).
 */
export async function unlinkFromEvents(field: string, id: number, ctx: WriteContext): Promise<void> {
  for (const event of ctx.store.list('events')) {
    const ids = event.source.data[field]
    if (!Array.isArray(ids) || !ids.includes(id)) continue
    const rest = ids.filter((other) => other !== id)
    const data = { ...event.source.data, [field]: rest.length ? rest : undefined }
    await ctx.tx.commit('events', event.stem, { [event.source.lang]: { data, body: event.source.body } })
  }
}

/**
 * An update of a trashed post that sets no status takes it out of the trash: published if the caller may
 * publish, else a draft. `trashed_from` follows: gone once the post leaves the trash, written when an update
 * puts it there.
 */
export function untrash(
  record: ContentRecord,
  given: Set<string>,
  changes: Record<string, unknown>,
  caller: Caller,
): void {
  const trashed = record.source.data.status === 'trash'
  if (trashed && !given.has('status')) changes.status = canPublish(caller) ? 'publish' : 'draft'
  const status = changes.status ?? record.source.data.status
  if (trashed && status !== 'trash') changes.trashed_from = null
  if (!trashed && status === 'trash') changes.trashed_from = statusIn(record.source.data)
}
