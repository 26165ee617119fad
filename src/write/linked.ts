import { isProtected, ownerIn } from '../content/model/post-state.ts'
import { mayRead } from '../context/request.ts'
import { canChangePost, canPublish } from '../auth/roles.ts'
import type { LinkedKind } from '../content/model/kinds.ts'
import type { ContentRecord } from '../content/store.ts'
import { statusIn } from '../content/model/post-state.ts'
import { apiError, asParam, invalidParam } from '../errors.ts'
import type { LinkedArg } from '../args/linked-entries.ts'
import type { ParsedParams } from '../args/parse.ts'
import { isTrueWord } from '../text.ts'
import { instantToWall, isWallClock, wallToInstant } from '../time/zone.ts'
import { planFiles, type Changes } from './changes.ts'
import type { WriteContext } from './transaction.ts'
import { checkAuthor, publicationDate, writtenStatus } from './posts.ts'
import { slugify, uniqueSlug } from '../content/slugs.ts'
import { prepareMarkdownOf, sanitizeChanges } from './sanitize.ts'

const NAME = { venues: 'venue', organizers: 'organizer' } as const
const TEXT = {
  venues: ['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'stateprovince', 'website'],
  organizers: ['phone', 'website', 'email'],
}

/** Front-matter changes from venue or organizer arguments: only what was sent (docs/compatibility.md §4); '' clears. */
export function linkedChanges(
  kind: LinkedKind,
  params: Record<string, unknown>,
  given: Set<string>,
  ctx: WriteContext,
  record?: ContentRecord,
): Changes {
  checkAuthor(params, given, ctx.caller, record === undefined)
  const changes: Changes = {}
  const sent = (field: string) => given.has(field) && params[field] !== undefined
  const text = (field: string, value: unknown) =>
    (changes[field] = value === '' || value === null ? null : String(value))
  if (sent(NAME[kind])) changes[NAME[kind]] = String(params[NAME[kind]])
  if (sent('description')) changes.description = params.description === null ? null : String(params.description)
  for (const field of TEXT[kind]) if (sent(field)) text(field, params[field])
  sanitizeChanges(changes, ctx)
  if (sent('image')) changes.image = params.image === '' || params.image === null ? null : toImageValue(params.image)
  if (sent('author')) changes.author = Number(params.author)
  if (kind === 'venues') {
    // Venue map flags are strings on the wire ("true"/"false"); absent on create means shown, as upstream.
    for (const flag of ['show_map', 'show_map_link']) if (sent(flag)) changes[flag] = isTrueWord(params[flag])
  }
  const date = publicationDate(params, ctx.site.timezone, ctx.now)
  if (date) changes.date = date.wall
  changes.modified = modifiedAfter(ctx, record?.source.data.modified)
  if (sent('status') || !record) {
    changes.status = writtenStatus(params.status, ctx.caller, date?.instant, ctx.now)
  }
  return changes
}

/**
 * POST /venues and /organizers, and inline creation from an event (docs/compatibility.md §24). A live record of the
 * same name (case aside) is reused, whatever description is sent: written onto (never its
 * name, description, status or author) when the caller may change it; linked as it is when the
 * caller may only read it; otherwise a new record is created. Returns the record and whether it is new.
 */
export async function createLinked(
  kind: LinkedKind,
  params: Record<string, unknown>,
  given: Set<string>,
  ctx: WriteContext,
) {
  const changes = linkedChanges(kind, params, given, ctx)
  const twin = findTwin(kind, params, ctx)
  if (twin?.mayChange) {
    for (const field of [NAME[kind], 'description', 'status', 'author']) delete changes[field]
    return { record: await commitLinked(kind, twin.record, changes, ctx), created: false }
  }
  if (twin) return { record: twin.record, created: false }
  const id = ctx.tx.nextId('post')
  const slug = uniqueSlug(ctx.store, kind, ctx.lang, slugify(String(params[NAME[kind]])), id)
  const fresh: Changes = {
    id,
    ...changes,
    slug,
    author: changes.author ?? ctx.caller.id,
    date: changes.date ?? nowWall(ctx),
  }
  if (kind === 'venues') {
    fresh.show_map ??= true
    fresh.show_map_link ??= true
  }
  await prepareMarkdownOf(fresh, ctx.caches.markdown)
  const files = planFiles(kind, undefined, ctx.lang, fresh)
  const record = await ctx.tx.commit(kind, ctx.store.newStem(kind, slug, id), files)
  return { record: record!, created: true }
}

/**
 * The live record a create would duplicate, and whether the caller may change it; none the caller may not read, or
 * may read only without its name (password-protected).
 */
function findTwin(
  kind: LinkedKind,
  params: Record<string, unknown>,
  ctx: WriteContext,
): { record: ContentRecord; mayChange: boolean } | undefined {
  // The name alone decides: a same-named venue sent with another description is still that venue
  // (docs/compatibility.md §24).
  const name = String(params[NAME[kind]]).toLowerCase()
  const twins = ctx.store.list(kind).filter((record) => {
    const data = record.source.data
    return data.status !== 'trash' && String(data[NAME[kind]]).toLowerCase() === name
  })
  const owner = (record: ContentRecord) => ownerIn(record.source.data)
  const status = (record: ContentRecord) => statusIn(record.source.data)
  const changeable = twins.find((record) => canChangePost(ctx.caller, owner(record), status(record)))
  if (changeable) return { record: changeable, mayChange: true }
  // A password-protected record shows its name only to those who may change it: linked by name, it would tell the
  // name to a caller who guessed it.
  const readable = twins.find(
    (record) => mayRead(ctx.reader, status(record), owner(record)) && !isProtected(record.source.data),
  )
  return readable ? { record: readable, mayChange: false } : undefined
}

/** Writes changes onto an existing venue or organizer (its `stateprovince` is derived when read). */
export async function commitLinked(
  kind: LinkedKind,
  record: ContentRecord,
  changes: Changes,
  ctx: WriteContext,
): Promise<ContentRecord> {
  await prepareMarkdownOf(changes, ctx.caches.markdown)
  const files = planFiles(kind, record, ctx.lang, changes)
  return (await ctx.tx.commit(kind, record.stem, files))!
}

/** One item of an event's `venue` or `organizer` to link: an existing id, or a new record's parsed arguments. */
export type PlannedItem = number | ParsedParams

/**
 * Plans an event's `venue` or `organizer`, as its argument check parsed it (args/linked-entries.ts), without
 * writing anything: who may create what is checked here; `null` when it clears the link.
 */
export function planLinked(kind: LinkedKind, arg: LinkedArg, ctx: WriteContext): PlannedItem[] | null {
  if (arg.items === null) return null
  if (kind === 'venues' && arg.items.length > 1) throw apiError('could-not-create-venue')
  return arg.items.map((item) => {
    if ('badField' in item) throw invalidParam(NAME[kind])
    return 'id' in item ? item.id : ownEntry(item.entry, ctx)
  })
}

/** Creates or reuses the planned records and returns the ids to link, in order, without repeats. */
export async function applyLinked(
  kind: LinkedKind,
  plan: PlannedItem[] | null,
  ctx: WriteContext,
): Promise<number[] | null> {
  if (plan === null) return null
  const ids: number[] = []
  for (const item of plan) {
    const id = typeof item === 'number' ? item : (await createInline(kind, item, ctx)).record.id
    if (!ids.includes(id)) ids.push(id)
  }
  return ids
}

/** A new record of an event's `venue` or `organizer`, refused as that parameter. */
async function createInline(kind: LinkedKind, item: ParsedParams, ctx: WriteContext) {
  try {
    return await createLinked(kind, item.values, item.given, ctx)
  } catch (error) {
    throw asParam(NAME[kind], error)
  }
}

/** A new inline record's arguments as this caller may write them. */
function ownEntry(entry: ParsedParams, ctx: WriteContext): ParsedParams {
  // Contributors' inline venues and organizers are drafts, like their events (docs/compatibility.md §22).
  const draft = !canPublish(ctx.caller) && entry.values.status === undefined
  const values = draft ? { ...entry.values, status: 'draft' } : entry.values
  // Who may name the author is checked now, before anything of the request is written.
  checkAuthor(values, entry.given, ctx.caller, true)
  return { values, given: entry.given }
}

/** An image as stored: a media id as a number, anything else as text. */
export function toImageValue(value: unknown): number | string {
  return typeof value === 'number' || /^\d+$/.test(String(value)) ? Number(value) : String(value)
}

/** Now, as a site-local wall clock: the publication date of a record created without one. */
export function nowWall(ctx: WriteContext): string {
  return instantToWall(ctx.now, ctx.site.timezone)
}

/**
 * The `modified` of a write: now, or a second after the latest of `previous` (the record's last one, and for an
 * event those of the venue and organizers it shows) when that is not earlier, so every write raises a feed's
 * SEQUENCE, which counts the seconds of the latest of them (docs/feeds.md §3), even two writes in one second.
 */
export function modifiedAfter(ctx: WriteContext, ...previous: unknown[]): string {
  const now = nowWall(ctx)
  const walls = previous.filter((one): one is string => typeof one === 'string' && isWallClock(one))
  if (walls.length === 0) return now
  const last = walls
    .map((one) => instantToWall(wallToInstant(one, 'UTC'), 'UTC'))
    .sort()
    .at(-1)!
  return last < now ? now : instantToWall(wallToInstant(last, 'UTC') + 1000, 'UTC')
}
