import type { ContentRecord } from '../content/store.ts'
import { apiError, invalidParam } from '../errors.ts'
import { entityTag } from '../http/respond.ts'
import { CATEGORY_READ_ARGS, TAG_READ_ARGS } from '../args/terms.ts'
import { asUpdate } from '../args/types.ts'
import { CATEGORY_CREATE_ARGS, TAG_CREATE_ARGS } from '../args/write-terms.ts'
import { toTermResponse } from '../serialize/term.ts'
import { restRoot } from '../serialize/urls.ts'
import { createTerm, deleteTerm, updateTerm, type TermKind } from '../write/terms.ts'
import { checkIfMatch, termManager } from './access.ts'
import { inTransaction } from './event-writes.ts'
import type { ApiRequest, ApiResult, Endpoint } from './types.ts'

const CREATE = { categories: CATEGORY_CREATE_ARGS, tags: TAG_CREATE_ARGS }
const READ = { categories: CATEGORY_READ_ARGS, tags: TAG_READ_ARGS }
const WRITE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']

/** A single term with its `_links`, as every term write answers. */
function withLinks(record: ContentRecord, request: ApiRequest) {
  return toTermResponse(record, request.view, { allow: WRITE_METHODS })
}

/** Tags have no parents: WordPress reads `parent` anyway and refuses it. */
function refuseTagParent(kind: TermKind, request: ApiRequest): void {
  if (kind === 'tags' && request.input.parent !== undefined) throw apiError('rest_taxonomy_not_hierarchical')
}

/** A category cannot sit under itself or one of its own descendants. */
function refuseCycle(term: ContentRecord, request: ApiRequest): void {
  const parent = request.params.parent
  for (let id = typeof parent === 'number' ? parent : 0; id; ) {
    if (id === term.id) throw invalidParam('parent')
    id = Number(request.view.store.get('categories', id)?.source.data.parent) || 0
  }
}

function create(kind: TermKind) {
  return async (request: ApiRequest): Promise<ApiResult> => {
    refuseTagParent(kind, request)
    const record = await inTransaction(request, (ctx) => createTerm(kind, request.params, ctx))
    return {
      status: 201,
      body: withLinks(record, request),
      headers: { Location: `${restRoot(request.view)}${kind}/${record.id}` },
    }
  }
}

function update(kind: TermKind) {
  return async (request: ApiRequest): Promise<ApiResult> => {
    refuseTagParent(kind, request)
    const record = await inTransaction(request, (ctx) => {
      const term = ctx.store.get(kind, request.params.id as number)!
      checkIfMatch(request, () => entityTag(JSON.stringify(toTermResponse(term, request.view, { allow: ['GET'] }))))
      refuseCycle(term, request)
      return updateTerm(kind, term, request.params, request.given, ctx)
    })
    return { body: withLinks(record, request) }
  }
}

/** Terms are always deleted for good; the answer is the term as it was, without `_links`. */
function remove(kind: TermKind) {
  return (request: ApiRequest): Promise<ApiResult> =>
    inTransaction(request, async (ctx) => {
      const term = ctx.store.get(kind, request.params.id as number)!
      const previous = toTermResponse(term, request.view)
      await deleteTerm(kind, term, ctx)
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
