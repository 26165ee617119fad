import { canChangePost, canDeleteForGood } from '../auth/roles.ts'
import type { ContentRecord } from '../content/store.ts'
import { apiError, invalidParam } from '../errors.ts'
import { EVENT_READ_ARGS, EVENT_SLUG_READ_ARGS } from '../args/events.ts'
import { asUpdate } from '../args/types.ts'
import { EVENT_CREATE_ARGS } from '../args/write-events.ts'
import { isStringOrEmpty } from '../args/write-validators.ts'
import { toEventJson, toEventResponse } from '../serialize/event.ts'
import { inTransaction, type WriteContext } from '../write/transaction.ts'
import { deletePost, trashPost } from '../write/removal.ts'
import { createEvent, updateEvent } from '../write/events.ts'
import { excludeOccurrence, overrideOccurrence } from '../write/occurrences.ts'
import { excludedBy } from '../write/series.ts'
import { forbidden } from '../http/envelope.ts'
import { checkIfMatch, ownership, pathRecord, POST_WRITER, postAccess } from './access.ts'
import type { RequestContext } from '../context/request.ts'
import type { RouteInput, ApiResult, Endpoint } from '../http/route.ts'

const FORCE = {
  force: {
    type: 'boolean',
    description: 'Delete the event for good instead of trashing it (editors and administrators)',
    required: false,
  },
} as const
// On update '' clears the description and the excerpt (docs/compatibility.md §4), and the password.
const CLEARABLE = {
  description: { ...EVENT_CREATE_ARGS.description!, validate: isStringOrEmpty },
  excerpt: { ...EVENT_CREATE_ARGS.excerpt!, validate: isStringOrEmpty },
}
export const EVENT_UPDATE_ARGS = {
  ...asUpdate(EVENT_CREATE_ARGS, EVENT_READ_ARGS),
  ...CLEARABLE,
  password: { ...EVENT_READ_ARGS.password!, validate: isStringOrEmpty },
}
// As upstream, a by-slug update lists `slug` first: in the body it is the event's new slug.
const EVENT_SLUG_UPDATE_ARGS = {
  ...asUpdate(EVENT_CREATE_ARGS, { slug: { ...EVENT_CREATE_ARGS.slug!, required: false } }),
  ...CLEARABLE,
}
const EVENT_DELETE_ARGS = { ...EVENT_READ_ARGS, ...FORCE }

/**
 * What the body sends that the argument table does not give: the event's password (create and by-slug
 * update do not declare it, so it is read undeclared, as WordPress reads it; text only, '' for none),
 * and a `recurrence` sent null, which turns a series back into a single event (docs/series-writes.md).
 */
function withUndeclared(input: RouteInput): { params: Record<string, unknown>; given: Set<string> } {
  const password = input.raw.password
  const params = { ...input.params }
  const given = new Set(input.given)
  if (input.raw.recurrence === null) {
    params.recurrence = null
    given.add('recurrence')
  }
  if (password === undefined || password === null) return { params, given }
  if (typeof password !== 'string') throw invalidParam('password')
  return { params: { ...params, password }, given: given.add('password') }
}

/**
 * The event the path names, or the reference's answer when there is none: an occurrence its series
 * excludes is 410, as a trashed event is to a second DELETE, for those who may change the series.
 */
function target(ctx: RequestContext, input: RouteInput): ContentRecord {
  const record = pathRecord('events', ctx, { id: input.pathId, slug: input.pathSlug })
  if (record) return record
  // Gone since the argument check found it (a write ahead in the queue): as for a slug that names nothing.
  if (input.pathSlug !== undefined) throw invalidParam('slug')
  const id = input.pathId ?? 0
  const series = excludedBy(ctx.store, id)
  if (series && input.method === 'DELETE' && mayChange(series, ctx)) throw apiError('event-is-in-trash')
  if (id && ctx.store.kindOfId('post', id)) throw apiError('rest-invalid-event-id')
  throw apiError('rest-event-not-found', [String(id)])
}

/**
 * The view a write answers in: the writer may change the event, so its password does not blank it (as
 * `context=edit`).
 */
function writerView(record: ContentRecord, ctx: RequestContext): RequestContext {
  const password = record.source.data.password
  return typeof password === 'string' && password !== '' ? { ...ctx, password } : ctx
}

/** The ETag a GET of this event would have given this caller, for If-Match (docs/compatibility.md §14). */
function currentTag(record: ContentRecord, ctx: RequestContext): string {
  return `"${toEventJson(record, ctx, { jsonLd: true }).digest}"`
}

async function create(ctx: RequestContext, input: RouteInput): Promise<ApiResult> {
  const { params, given } = withUndeclared(input)
  const record = await inTransaction(ctx, input, (write) => createEvent(params, given, write))
  return { status: 201, json: toEventJson(record, writerView(record, ctx)).bytes }
}

async function update(ctx: RequestContext, input: RouteInput): Promise<ApiResult> {
  const record = await inTransaction(ctx, input, (write) => {
    const event = target(ctx, input)
    checkIfMatch(input, () => currentTag(event, ctx))
    const { params, given } = withUndeclared(input)
    if (event.series) return overrideOccurrence(event, params, given, write)
    return updateEvent(event, params, given, write)
  })
  return { json: toEventJson(record, writerView(record, ctx)).bytes }
}

/**
 * DELETE of an occurrence excludes it from its series (docs/series-writes.md): the answer is the occurrence
 * as it was, in the trash; with `force=true`, WordPress's `{deleted, previous}`. Either way its series'
 * rule no longer makes it; it cannot be deleted for good alone.
 */
async function removeOccurrence(occurrence: ContentRecord, force: boolean, ctx: RequestContext, write: WriteContext) {
  if (occurrence.source.data.status === 'trash') throw apiError('event-is-in-trash')
  if (force && !canDeleteForGood(ctx.caller)) throw forbidden(ctx.caller)
  const previous = toEventResponse(occurrence, writerView(occurrence, ctx))
  await excludeOccurrence(occurrence, write)
  return force ? { body: { deleted: true, previous } } : { body: { ...previous, status: 'trash' } }
}

function mayChange(record: ContentRecord, ctx: RequestContext): boolean {
  const { owner, rights } = ownership(record)
  return canChangePost(ctx.caller, owner, rights)
}

/** DELETE trashes (a second time is 410); `force=true` deletes the files for good (docs/compatibility.md §8). */
async function remove(ctx: RequestContext, input: RouteInput): Promise<ApiResult> {
  return inTransaction(ctx, input, async (write) => {
    const event = target(ctx, input)
    checkIfMatch(input, () => currentTag(event, ctx))
    if (event.series) return removeOccurrence(event, input.params.force === true, ctx, write)
    if (input.params.force === true) {
      if (!canDeleteForGood(ctx.caller)) throw forbidden(ctx.caller)
      const previous = toEventResponse(event, writerView(event, ctx))
      await deletePost('events', event, write)
      return { body: { deleted: true, previous } }
    }
    const trashed = await trashPost('events', event, write)
    return { json: toEventJson(trashed, writerView(trashed, ctx)).bytes }
  })
}

const writer = { capability: POST_WRITER, authorize: postAccess('events') }

/** POST /events. */
export const CREATE_EVENT: Endpoint = {
  methods: ['POST'],
  args: EVENT_CREATE_ARGS,
  capability: POST_WRITER,
  handler: create,
}

/** DELETE and POST/PUT/PATCH on /events/{id}. */
export const EVENT_ID_WRITES: Endpoint[] = [
  { methods: ['DELETE'], args: EVENT_DELETE_ARGS, ...writer, handler: remove },
  { methods: ['POST', 'PUT', 'PATCH'], args: EVENT_UPDATE_ARGS, ...writer, handler: update },
]

/**
 * DELETE and POST/PUT/PATCH on /events/by-slug/{slug}: the same checks on the very record
 * (docs/compatibility.md §6).
 */
export const EVENT_SLUG_WRITES: Endpoint[] = [
  { methods: ['DELETE'], args: { ...EVENT_SLUG_READ_ARGS, ...FORCE }, ...writer, handler: remove },
  { methods: ['POST', 'PUT', 'PATCH'], args: EVENT_SLUG_UPDATE_ARGS, ...writer, handler: update },
]
