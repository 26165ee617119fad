import { canDeleteForGood, canPublish } from '../auth/roles.ts'
import type { ContentRecord } from '../content/store.ts'
import { apiError, invalidParam } from '../errors.ts'
import { entityTag } from '../http/respond.ts'
import { ORGANIZER_READ_ARGS, ORGANIZER_SLUG_READ_ARGS, VENUE_READ_ARGS, VENUE_SLUG_READ_ARGS } from '../args/linked.ts'
import { asUpdate } from '../args/types.ts'
import { ORGANIZER_CREATE_ARGS, VENUE_CREATE_ARGS } from '../args/write-linked.ts'
import { toOrganizerResponse, toVenueResponse } from '../serialize/linked.ts'
import type { WriteContext } from '../write/context.ts'
import { commitLinked, createLinked, linkedChanges, type LinkedKind } from '../write/linked.ts'
import { checkIfMatch, forbidden, pathRecord, POST_WRITER, postAccess } from './access.ts'
import { inTransaction } from './event-writes.ts'
import type { ApiRequest, ApiResult, Endpoint } from './types.ts'

const SERIALIZE = { venues: toVenueResponse, organizers: toOrganizerResponse }
const SINGULAR = { venues: 'venue', organizers: 'organizer' } as const
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
function target(kind: LinkedKind, request: ApiRequest): ContentRecord {
  const record = pathRecord(kind, {
    view: request.view,
    ...(request.pathId !== undefined ? { id: request.pathId } : {}),
    ...(request.pathSlug !== undefined ? { slug: request.pathSlug } : {}),
  })
  if (!record) throw invalidParam(request.pathSlug !== undefined ? 'slug' : 'id')
  return record
}

/** The record as a single GET shows it: the body every write answers with, and what If-Match is checked against. */
export function linkedBody(kind: LinkedKind, record: ContentRecord, request: ApiRequest, jsonLd = true) {
  return SERIALIZE[kind](record, request.view, { top: true, jsonLd })
}

function create(kind: LinkedKind) {
  return async (request: ApiRequest): Promise<ApiResult> => {
    const { record } = await inTransaction(request, (ctx) => createLinked(kind, request.params, request.given, ctx))
    // 201 also when an existing record of the same name was reused, as upstream (docs/compatibility.md §24).
    return { status: 201, body: linkedBody(kind, record, request, false) }
  }
}

function update(kind: LinkedKind) {
  return async (request: ApiRequest): Promise<ApiResult> => {
    const record = await inTransaction(request, (ctx) => {
      const current = target(kind, request)
      checkIfMatch(request, () => entityTag(JSON.stringify(linkedBody(kind, current, request))))
      const changes = linkedChanges(kind, request.params, request.given, ctx, current)
      if (current.source.data.status === 'trash' && !request.given.has('status'))
        changes.status = canPublish(ctx.caller) ? 'publish' : 'draft'
      return commitLinked(kind, current, changes, ctx)
    })
    return { body: linkedBody(kind, record, request, false) }
  }
}

/** DELETE trashes and unlinks the record from every event; a second DELETE is 410; force deletes the files (docs/compatibility.md §8). */
function remove(kind: LinkedKind) {
  return (request: ApiRequest): Promise<ApiResult> =>
    inTransaction(request, async (ctx) => {
      const record = target(kind, request)
      checkIfMatch(request, () => entityTag(JSON.stringify(linkedBody(kind, record, request))))
      if (request.params.force === true) {
        if (!canDeleteForGood(request.caller)) throw forbidden(request.caller)
        const previous = linkedBody(kind, record, request, false)
        await unlink(kind, record.id, ctx)
        await ctx.tx.commit(kind, record.stem, Object.fromEntries([...record.files.keys()].map((lang) => [lang, null])))
        return { body: { deleted: true, previous } }
      }
      if (record.source.data.status === 'trash') throw apiError(`${SINGULAR[kind]}-is-in-trash`)
      await unlink(kind, record.id, ctx)
      const trashed = await ctx.tx.commit(kind, record.stem, {
        [record.source.lang]: { data: { ...record.source.data, status: 'trash' }, body: record.source.body },
      })
      return { body: linkedBody(kind, trashed!, request, false) }
    })
}

/** Takes a venue or organizer out of every event that links it (Cest:VenueDeletion). */
async function unlink(kind: LinkedKind, id: number, ctx: WriteContext): Promise<void> {
  const field = SINGULAR[kind]
  for (const event of ctx.store.list('events')) {
    const ids = event.source.data[field]
    if (!Array.isArray(ids) || !ids.includes(id)) continue
    const rest = ids.filter((other) => other !== id)
    const data = { ...event.source.data, [field]: rest.length ? rest : undefined }
    await ctx.tx.commit('events', event.stem, { [event.source.lang]: { data, body: event.source.body } })
  }
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
