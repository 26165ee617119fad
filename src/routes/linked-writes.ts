import { canDeleteForGood } from '../auth/roles.ts'
import type { ContentRecord } from '../content/store.ts'
import { invalidParam } from '../errors.ts'
import { entityTag } from '../http/respond.ts'
import { ORGANIZER_READ_ARGS, ORGANIZER_SLUG_READ_ARGS, VENUE_READ_ARGS, VENUE_SLUG_READ_ARGS } from '../args/linked.ts'
import { asUpdate } from '../args/types.ts'
import { ORGANIZER_CREATE_ARGS, VENUE_CREATE_ARGS } from '../args/write-linked.ts'
import { toOrganizerResponse, toVenueResponse } from '../serialize/linked.ts'
import { inTransaction } from '../write/transaction.ts'
import { deletePost, trashPost, untrash } from '../write/removal.ts'
import type { LinkedKind } from '../content/model/kinds.ts'
import { commitLinked, createLinked, linkedChanges } from '../write/linked.ts'
import { forbidden } from '../http/envelope.ts'
import { checkIfMatch, pathRecord, POST_WRITER, postAccess } from './access.ts'
import type { RequestContext } from '../context/request.ts'
import type { RouteInput, ApiResult, Endpoint } from '../http/route.ts'

const SERIALIZE = { venues: toVenueResponse, organizers: toOrganizerResponse }
const CREATE = { venues: VENUE_CREATE_ARGS, organizers: ORGANIZER_CREATE_ARGS }
const READ = { venues: VENUE_READ_ARGS, organizers: ORGANIZER_READ_ARGS }
const SLUG = { venues: VENUE_SLUG_READ_ARGS, organizers: ORGANIZER_SLUG_READ_ARGS }
const FORCE = {
  force: {
    type: 'boolean',
    description: 'Delete for good instead of trashing (editors and administrators)',
    required: false,
  },
} as const

/** The venue or organizer the path names; an unknown slug is 400 like an unknown id. */
function target(kind: LinkedKind, ctx: RequestContext, input: RouteInput): ContentRecord {
  const record = pathRecord(kind, ctx, { id: input.pathId, slug: input.pathSlug })
  if (!record) throw invalidParam(input.pathSlug !== undefined ? 'slug' : 'id')
  return record
}

/** The record as a single GET shows it: the body every write answers with, and what If-Match is checked against. */
function linkedBody(kind: LinkedKind, record: ContentRecord, ctx: RequestContext, jsonLd = true) {
  return SERIALIZE[kind](record, ctx, { top: true, jsonLd })
}

function create(kind: LinkedKind) {
  return async (ctx: RequestContext, input: RouteInput): Promise<ApiResult> => {
    const { record } = await inTransaction(ctx, input, (write) => createLinked(kind, input.params, input.given, write))
    // 201 also when an existing record of the same name was reused, as upstream (docs/compatibility.md §24).
    return { status: 201, body: linkedBody(kind, record, ctx, false) }
  }
}

function update(kind: LinkedKind) {
  return async (ctx: RequestContext, input: RouteInput): Promise<ApiResult> => {
    const record = await inTransaction(ctx, input, (write) => {
      const current = target(kind, ctx, input)
      checkIfMatch(input, () => entityTag(JSON.stringify(linkedBody(kind, current, ctx))))
      const changes = linkedChanges(kind, input.params, input.given, write, current)
      untrash(current, input.given, changes, write.caller)
      return commitLinked(kind, current, changes, write)
    })
    return { body: linkedBody(kind, record, ctx, false) }
  }
}

/**
 * DELETE trashes and unlinks the record from every event; a second DELETE is 410; force deletes the files
 * (docs/compatibility.md §8).
 */
function remove(kind: LinkedKind) {
  return (ctx: RequestContext, input: RouteInput): Promise<ApiResult> =>
    inTransaction(ctx, input, async (write) => {
      const record = target(kind, ctx, input)
      checkIfMatch(input, () => entityTag(JSON.stringify(linkedBody(kind, record, ctx))))
      if (input.params.force === true) {
        if (!canDeleteForGood(ctx.caller)) throw forbidden(ctx.caller)
        const previous = linkedBody(kind, record, ctx, false)
        await deletePost(kind, record, write)
        return { body: { deleted: true, previous } }
      }
      return { body: linkedBody(kind, await trashPost(kind, record, write), ctx, false) }
    })
}

/** POST /venues or /organizers. */
export function createLinkedEndpoint(kind: LinkedKind): Endpoint {
  return { methods: ['POST'], args: CREATE[kind], capability: POST_WRITER, handler: create(kind) }
}

/** DELETE and POST/PUT/PATCH on one venue or organizer, by id (`byId`) or by slug. */
export function linkedWrites(kind: LinkedKind, byId: boolean): Endpoint[] {
  const rights = { capability: POST_WRITER, authorize: postAccess(kind) }
  return [
    { methods: ['DELETE'], args: { ...(byId ? READ[kind] : SLUG[kind]), ...FORCE }, ...rights, handler: remove(kind) },
    // Venues and organizers take no slug on write, so on by-slug routes `slug` is the path's.
    {
      methods: ['POST', 'PUT', 'PATCH'],
      args: asUpdate(CREATE[kind], byId ? READ[kind] : SLUG[kind]),
      ...rights,
      handler: update(kind),
      slugFromPath: !byId,
    },
  ]
}
