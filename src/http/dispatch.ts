import type { H3, H3Event } from 'h3'
import { parseParams } from '../args/parse.ts'
import type { RequestContext } from '../context/request.ts'
import { apiError } from '../errors.ts'
import { type AppState, requestContext } from './context.ts'
import { forbidden } from './envelope.ts'
import { methodOf, pathTarget, rawInput } from './input.ts'
import { answer, responseInit, send } from './respond.ts'
import { allowedMethods, type RouteDef } from './route.ts'

/**
 * Answers one request to a route: its context (built once), the endpoint for its method, the caller's
 * rights, its arguments through WordPress's pipeline, the handler, and the response.
 */
export async function dispatch(event: H3Event, route: RouteDef, app: AppState): Promise<Response> {
  const { ctx, query } = await requestContext(event, app)
  const method = methodOf(event, query)
  const endpoint = route.endpoints.find((candidate) => candidate.methods.includes(method === 'HEAD' ? 'GET' : method))
  if (!endpoint) throw apiError('rest_no_route')
  // For the error envelope, should anything below fail.
  event.context.allow = allowedMethods(route, ctx.caller)
  event.context.authenticated = ctx.caller !== null
  const target = pathTarget(event)
  // docs/compatibility.md §3: who asks is settled before any argument, so a write without the right is
  // 401/403 whatever its body.
  if (endpoint.capability && !endpoint.capability(ctx.caller)) throw forbidden(ctx.caller)
  endpoint.authorize?.(ctx, target)
  const raw = await rawInput(event, method, query, endpoint, target)
  const parsed = parseParams(endpoint.args, raw, ctx)
  const result = await endpoint.handler(ctx, {
    method,
    params: parsed.values,
    given: parsed.given,
    query,
    raw,
    ifMatch: event.req.headers.get('if-match'),
    ...(target.slug !== undefined ? { pathSlug: target.slug } : {}),
    ...(target.id !== undefined ? { pathId: target.id } : {}),
  })
  return answer(event, route, ctx, query, result)
}

/** Serves a route at its path: each of its methods through `dispatch`, and OPTIONS with the route's description. */
export function serveRoute(
  h3: H3,
  path: string,
  route: RouteDef,
  app: AppState,
  describe: (ctx: RequestContext) => unknown,
): void {
  for (const method of route.endpoints.flatMap((endpoint) => endpoint.methods))
    h3.on(method as 'GET', path, (event) => dispatch(event, route, app))
  h3.on('OPTIONS', path, async (event) => {
    const { ctx } = await requestContext(event, app)
    return send(event, JSON.stringify(describe(ctx)), responseInit(route, ctx, 200))
  })
}
