import { canPublish } from '../auth/roles.ts'
import type { ContentRecord } from '../content/store.ts'
import { ApiError, apiError, invalidParam } from '../errors.ts'
import { parseParams } from '../schema/params.ts'
import { ORGANIZER_CREATE_ARGS, VENUE_CREATE_ARGS } from '../schema/write-args.ts'
import { toList } from '../schema/validators.ts'
import { instantToWall } from '../time/zone.ts'
import { planFiles, type Changes } from './changes.ts'
import type { WriteContext } from './context.ts'
import { publicationDate, writtenStatus } from './posts.ts'
import { slugify, uniqueSlug } from './slugs.ts'
import { prepareMarkdownOf, sanitizeChanges } from './sanitize.ts'

export type LinkedKind = 'venues' | 'organizers'

const NAME = { venues: 'venue', organizers: 'organizer' } as const
const TEXT = {
  venues: ['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'stateprovince', 'website'],
  organizers: ['phone', 'website', 'email'],
}

/** Front-matter changes from venue or organizer arguments: only what was sent (D3); '' clears. */
export function linkedChanges(kind: LinkedKind, params: Record<string, unknown>, given: Set<string>, ctx: WriteContext, record?: ContentRecord): Changes {
  const changes: Changes = {}
  const sent = (field: string) => given.has(field) && params[field] !== undefined
  const text = (field: string, value: unknown) => (changes[field] = value === '' || value === null ? null : String(value))
  if (sent(NAME[kind])) changes[NAME[kind]] = String(params[NAME[kind]])
  if (sent('description')) changes.description = params.description === null ? null : String(params.description)
  for (const field of TEXT[kind]) if (sent(field)) text(field, params[field])
  sanitizeChanges(changes, ctx.caller)
  if (sent('image')) changes.image = params.image === '' || params.image === null ? null : toImageValue(params.image)
  if (sent('author')) changes.author = Number(params.author)
  if (kind === 'venues') {
    // Venue map flags are strings on the wire ("true"/"false"); absent on create means shown (§8.6).
    for (const flag of ['show_map', 'show_map_link']) if (sent(flag)) changes[flag] = /^(1|true|yes|on)$/i.test(String(params[flag]))
  }
  const date = publicationDate(params, ctx.siteZone, ctx.now)
  if (date) changes.date = date.wall
  changes.modified = instantToWall(ctx.now, ctx.siteZone)
  if (sent('status') || !record) {
    changes.status = writtenStatus(params.status, ctx.caller, date?.instant, ctx.now)
  }
  return changes
}

/**
 * POST /venues and /organizers, and inline creation from an event (§8.6): a live record of the
 * same name (and description, when one is sent) is reused, and the request's other fields are
 * written onto it; otherwise a new one is created. Returns the record and whether it is new.
 */
export async function createLinked(kind: LinkedKind, params: Record<string, unknown>, given: Set<string>, ctx: WriteContext) {
  const name = String(params[NAME[kind]])
  const description = given.has('description') ? String(params.description ?? '') : undefined
  const twin = ctx.store.list(kind).find((record) => {
    const data = record.source.data
    if (data.status === 'trash' || String(data[NAME[kind]]).toLowerCase() !== name.toLowerCase()) return false
    return description === undefined || record.source.body.trim() === description.trim()
  })
  const changes = linkedChanges(kind, params, given, ctx, twin)
  if (twin) {
    delete changes[NAME[kind]]
    delete changes.description
    delete changes.status
    return { record: await commitLinked(kind, twin, changes, ctx), created: false }
  }
  const id = ctx.store.nextId('post')
  const slug = uniqueSlug(ctx.store, kind, ctx.lang, slugify(name), id)
  const fresh: Changes = { id, ...changes, slug, author: changes.author ?? ctx.caller.id, date: changes.date ?? nowWall(ctx) }
  if (kind === 'venues') {
    fresh.show_map ??= true
    fresh.show_map_link ??= true
  }
  await prepareMarkdownOf(fresh)
  const files = planFiles(kind, undefined, ctx.lang, fresh)
  const record = await ctx.tx.commit(kind, ctx.store.newStem(kind, slug, id), files)
  return { record: record!, created: true }
}

/** Writes changes onto an existing venue or organizer (its `stateprovince` is derived when read). */
export async function commitLinked(kind: LinkedKind, record: ContentRecord, changes: Changes, ctx: WriteContext): Promise<ContentRecord> {
  await prepareMarkdownOf(changes)
  const files = planFiles(kind, record, ctx.lang, changes)
  return (await ctx.tx.commit(kind, record.stem, files))!
}

/**
 * An event's `venue` or `organizer` argument as ids (§8.4, D3, D10): ids, `{id}`, objects that
 * create or reuse a record, lists, CSV; `null` when it clears the link.
 */
export async function resolveLinked(kind: LinkedKind, value: unknown, ctx: WriteContext): Promise<number[] | null> {
  if (value === '' || value === 0 || value === '0' || (Array.isArray(value) && value.length === 0)) return null
  const items = typeof value === 'string' ? toList(value) : Array.isArray(value) ? value : [value]
  if (kind === 'venues' && items.length > 1) throw apiError('could-not-create-venue')
  const ids: number[] = []
  for (const item of items) {
    const id = typeof item === 'object' && item !== null && (item as { id?: unknown }).id === undefined
      ? (await inlineCreate(kind, item as Record<string, unknown>, ctx)).id
      : Number(typeof item === 'object' && item !== null ? (item as { id: unknown }).id : item)
    if (!ids.includes(id)) ids.push(id)
  }
  return ids
}

async function inlineCreate(kind: LinkedKind, entry: Record<string, unknown>, ctx: WriteContext) {
  const args = kind === 'venues' ? VENUE_CREATE_ARGS : ORGANIZER_CREATE_ARGS
  let parsed
  try {
    parsed = parseParams(args, entry, ctx.paramContext)
  } catch (error) {
    if (error instanceof ApiError) throw invalidParam(NAME[kind])
    throw error
  }
  // Contributors' inline venues and organizers are drafts, like their events (§10.2).
  if (!canPublish(ctx.caller) && parsed.values.status === undefined) parsed.values.status = 'draft'
  return (await createLinked(kind, parsed.values, parsed.given, ctx)).record
}

/** An image as stored: a media id as a number, anything else as text. */
export function toImageValue(value: unknown): number | string {
  return typeof value === 'number' || /^\d+$/.test(String(value)) ? Number(value) : String(value)
}

/** Now, as a site-local wall clock: the publication date of a record created without one. */
export function nowWall(ctx: WriteContext): string {
  return instantToWall(ctx.now, ctx.siteZone)
}
