import { canDeleteForGood } from '../auth/roles.ts'
import type { ContentRecord } from '../content/store.ts'
import { apiError, invalidParam } from '../errors.ts'
import { EVENT_READ_ARGS, EVENT_SLUG_READ_ARGS } from '../args/events.ts'
import { asUpdate } from '../args/types.ts'
import { EVENT_CREATE_ARGS } from '../args/write-events.ts'
import { isStringOrEmpty } from '../args/write-validators.ts'
import type { View } from '../serialize/context.ts'
import { toEventJson, toEventResponse } from '../serialize/event.ts'
import { createWriteContext, type WriteContext } from '../write/context.ts'
import { createEvent, updateEvent } from '../write/events.ts'
import { checkIfMatch, forbidden, pathRecord, POST_WRITER, postAccess } from './access.ts'
import type { ApiRequest, ApiResult, Endpoint } from './types.ts'

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

/** Runs a write as the store's only writer, with what the write modules need. */
export function inTransaction<T>(request: ApiRequest, work: (ctx: WriteContext) => Promise<T>): Promise<T> {
  const { store, lang, now } = request.view
  return store.transaction((tx) =>
    work(
      createWriteContext({
        store,
        tx,
        caller: request.caller!,
        lang,
        siteZone: request.scope.siteZone,
        now,
        paramContext: request.paramContext,
        markdown: request.view.caches.markdown,
      }),
    ),
  )
}

/**
 * The event's password as the body sends it: create and by-slug update do not declare it,
 * so it is read undeclared, as WordPress reads it; text only, '' for none.
 */
function withPassword(request: ApiRequest): { params: Record<string, unknown>; given: Set<string> } {
  const password = request.input.password
  if (password === undefined || password === null) return { params: request.params, given: request.given }
  if (typeof password !== 'string') throw invalidParam('password')
  return { params: { ...request.params, password }, given: new Set([...request.given, 'password']) }
}

/** The event the path names, or the reference's answer when there is none. */
function target(request: ApiRequest): ContentRecord {
  const record = pathRecord('events', {
    view: request.view,
    ...(request.pathId !== undefined ? { id: request.pathId } : {}),
    ...(request.pathSlug !== undefined ? { slug: request.pathSlug } : {}),
  })
  if (record) return record
  const id = request.pathId ?? 0
  if (id && request.view.store.kindOfId('post', id)) throw apiError('rest-invalid-event-id')
  throw apiError('rest-event-not-found', [String(id)])
}

/** The view a write answers in: the writer may change the event, so its password does not blank it (as `context=edit`). */
function writerView(record: ContentRecord, request: ApiRequest): View {
  const password = record.source.data.password
  return typeof password === 'string' && password !== '' ? { ...request.view, password } : request.view
}

/** The ETag a GET of this event would have given this caller, for If-Match (docs/compatibility.md §14). */
function currentTag(record: ContentRecord, request: ApiRequest): string {
  return `"${toEventJson(record, request.view, { jsonLd: true }).digest}"`
}

async function create(request: ApiRequest): Promise<ApiResult> {
  const { params, given } = withPassword(request)
  const record = await inTransaction(request, (ctx) => createEvent(params, given, ctx))
  return { status: 201, json: toEventJson(record, writerView(record, request)).bytes }
}

async function update(request: ApiRequest): Promise<ApiResult> {
  const record = await inTransaction(request, (ctx) => {
    const event = target(request)
    checkIfMatch(request, () => currentTag(event, request))
    const { params, given } = withPassword(request)
    return updateEvent(event, params, given, ctx)
  })
  return { json: toEventJson(record, writerView(record, request)).bytes }
}

/** DELETE trashes (a second time is 410); `force=true` deletes the files for good (docs/compatibility.md §8). */
async function remove(request: ApiRequest): Promise<ApiResult> {
  return inTransaction(request, async (ctx) => {
    const event = target(request)
    checkIfMatch(request, () => currentTag(event, request))
    if (request.params.force === true) {
      if (!canDeleteForGood(request.caller)) throw forbidden(request.caller)
      const previous = toEventResponse(event, writerView(event, request))
      await ctx.tx.commit('events', event.stem, Object.fromEntries([...event.files.keys()].map((lang) => [lang, null])))
      return { body: { deleted: true, previous } }
    }
    if (event.source.data.status === 'trash') throw apiError('event-is-in-trash')
    const data = { ...event.source.data, status: 'trash' }
    const trashed = await ctx.tx.commit('events', event.stem, {
      [event.source.lang]: { data, body: event.source.body },
    })
    return { json: toEventJson(trashed!, writerView(trashed!, request)).bytes }
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

/** DELETE and POST/PUT/PATCH on /events/by-slug/{slug}: the same checks on the very record (docs/compatibility.md §6). */
export const EVENT_SLUG_WRITES: Endpoint[] = [
  { methods: ['DELETE'], args: { ...EVENT_SLUG_READ_ARGS, ...FORCE }, ...writer, handler: remove },
  { methods: ['POST', 'PUT', 'PATCH'], args: EVENT_SLUG_UPDATE_ARGS, ...writer, handler: update },
]
