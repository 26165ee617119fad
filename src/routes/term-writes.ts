import type { ContentRecord } from '../content/store.ts'
import { apiError, invalidParam } from '../errors.ts'
import { entityTag } from '../http/respond.ts'
import { CATEGORY_READ_ARGS, TAG_READ_ARGS } from '../args/terms.ts'
import { asUpdate } from '../args/types.ts'
import { CATEGORY_CREATE_ARGS, TAG_CREATE_ARGS } from '../args/write-terms.ts'
import { toTermResponse } from '../serialize/term.ts'
import { restRoot } from '../serialize/urls.ts'
import { inTransaction } from '../write/transaction.ts'
import type { TermKind } from '../content/model/kinds.ts'
import { createTerm, deleteTerm, updateTerm } from '../write/terms.ts'
import { checkIfMatch, termManager } from './access.ts'
import type { RequestContext } from '../context/request.ts'
import type { RouteInput, ApiResult, Endpoint } from '../http/route.ts'

const CREATE = { categories: CATEGORY_CREATE_ARGS, tags: TAG_CREATE_ARGS }
const READ = { categories: CATEGORY_READ_ARGS, tags: TAG_READ_ARGS }
const WRITE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']

/** A single term with its `_links`, as every term write answers. */
function withLinks(record: ContentRecord, ctx: RequestContext) {
  return toTermResponse(record, ctx, { allow: WRITE_METHODS })
}

/** Tags have no parents: WordPress reads `parent` anyway and refuses it. */
function refuseTagParent(kind: TermKind, input: RouteInput): void {
  if (kind === 'tags' && input.raw.parent !== undefined) throw apiError('rest_taxonomy_not_hierarchical')
}

/** A category cannot sit under itself or one of its own descendants. */
function refuseCycle(term: ContentRecord, ctx: RequestContext, input: RouteInput): void {
  const parent = input.params.parent
  for (let id = typeof parent === 'number' ? parent : 0; id; ) {
    if (id === term.id) throw invalidParam('parent')
    id = Number(ctx.store.get('categories', id)?.source.data.parent) || 0
  }
}

/**
 * The term the path names, looked up again in the write's transaction: the argument check found it, but a write
 * ahead of this one in the queue (a second DELETE sent with the first) may have removed it since. Then the answer
 * is the one that check gives for an id that names no term.
 */
function termOf(kind: TermKind, ctx: RequestContext, input: RouteInput): ContentRecord {
  const term = ctx.store.get(kind, input.params.id as number)
  if (!term) throw invalidParam('id')
  return term
}

function create(kind: TermKind) {
  return async (ctx: RequestContext, input: RouteInput): Promise<ApiResult> => {
    refuseTagParent(kind, input)
    const record = await inTransaction(ctx, input, (write) => createTerm(kind, input.params, write))
    return {
      status: 201,
      body: withLinks(record, ctx),
      headers: { Location: `${restRoot(ctx)}${kind}/${record.id}` },
    }
  }
}

function update(kind: TermKind) {
  return async (ctx: RequestContext, input: RouteInput): Promise<ApiResult> => {
    refuseTagParent(kind, input)
    const record = await inTransaction(ctx, input, (write) => {
      const term = termOf(kind, ctx, input)
      checkIfMatch(input, () => entityTag(JSON.stringify(toTermResponse(term, ctx, { allow: ['GET'] }))))
      refuseCycle(term, ctx, input)
      return updateTerm(kind, term, input.params, input.given, write)
    })
    return { body: withLinks(record, ctx) }
  }
}

/** Terms are always deleted for good; the answer is the term as it was, without `_links`. */
function remove(kind: TermKind) {
  return (ctx: RequestContext, input: RouteInput): Promise<ApiResult> =>
    inTransaction(ctx, input, async (write) => {
      const term = termOf(kind, ctx, input)
      const previous = toTermResponse(term, ctx)
      await deleteTerm(kind, term, write)
      return { body: previous }
    })
}

/** POST /categories or /tags. */
export function createTermEndpoint(kind: TermKind): Endpoint {
  return { methods: ['POST'], args: CREATE[kind], capability: termManager(kind), handler: create(kind) }
}

/** POST/PUT/PATCH and DELETE on one category or tag. */
export function termWrites(kind: TermKind): Endpoint[] {
  return [
    {
      methods: ['POST', 'PUT', 'PATCH'],
      args: asUpdate(CREATE[kind], READ[kind]),
      capability: termManager(kind),
      handler: update(kind),
    },
    { methods: ['DELETE'], args: READ[kind], capability: termManager(kind), handler: remove(kind) },
  ]
}
