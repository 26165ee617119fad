import type { H3, H3Event } from 'h3'
import { parseParams } from '../args/parse.ts'
import type { RequestContext } from '../context/request.ts'
import { apiError } from '../errors.ts'
import { type AppState, requestContext } from './context.ts'
import { forbidden } from './envelope.ts'
import { type Asked, deliverKept, keptAnswer, type Life, lifeOf, reuseKey } from './answer-reuse.ts'
import { bodyBytes } from './body-parts.ts'
import { aliasNodeRequest } from './front-door.ts'
import { methodOf, pathTarget, rawInput } from './input.ts'
import { answer, deliver, type Outgoing, responseInit, send } from './respond.ts'
import { allowedMethods, type RouteDef } from './route.ts'

/**
 * Answers one request to a route: an anonymous GET or HEAD from the answers the app keeps when it can (without
 * building a context or running the handler), else by running it (`run`), keeping its answer when it may.
 */
export async function dispatch(event: H3Event, route: RouteDef, app: AppState): Promise<Response> {
  const key = app.answers && reuseKey(event)
  const version = app.store.version
  const kept = key === undefined ? undefined : app.answers!.find(key, version, app.now())
  if (kept) {
    aliasNodeRequest(event, app.answers!, key!, version)
    return deliverKept(event, kept)
  }
  const done = await run(event, route, app)
  const life = key === undefined ? undefined : lifeToKeep(route, done)
  // Kept only if nothing it was computed over changed while it was computed, and if the cache takes it.
  if (!life || version !== app.store.version || !app.answers!.admits(key!, version, bodyBytes(done.out.body)))
    return deliver(event, done.out)
  const answer = keptAnswer(done.out, life)
  app.answers!.keep(key!, version, answer)
  aliasNodeRequest(event, app.answers!, key!, version)
  return deliverKept(event, answer)
}

/**
 * Runs a request through a route: its context (built once), the endpoint for its method, the caller's rights,
 * its arguments through WordPress's pipeline, the handler, and the response it makes.
 */
async function run(event: H3Event, route: RouteDef, app: AppState): Promise<Done> {
  const { ctx, query } = await requestContext(event, app)
  const method = methodOf(event, query)
  const endpoint = route.endpoints.find((candidate) => candidate.methods.includes(method === 'HEAD' ? 'GET' : method))
  if (!endpoint) throw apiError('rest_no_route')
  // For the error envelope, should anything below fail.
  event.context.allow = allowedMethods(route, ctx.caller)
  event.context.authenticated = ctx.caller !== null
  const target = pathTarget(event)
  // docs/compatibility.md §3: who asks is settled before any argument, so a write without the right is
  // 401/403 whatever its body. A write settles it again in its transaction (`recheck`).
  const rights = () => {
    if (endpoint.capability && !endpoint.capability(ctx.caller)) throw forbidden(ctx.caller)
    endpoint.authorize?.(ctx, target)
  }
  rights()
  const header = event.req.headers.get('authorization')
  const recheck = async () => {
    const was = ctx.caller
    if (was && app.users) {
      const now = await app.users.callerNow(header)
      if (!now || now.id !== was.id) throw apiError('incorrect_password')
      // Given another role meanwhile: the write was let in, and would run, as the old one. Sent again, it runs as
      // the new.
      if (now.role !== was.role) throw forbidden(now)
    }
    rights()
  }
  const raw = await rawInput(event, method, query, endpoint, target)
  const parsed = parseParams(endpoint.args, raw, ctx)
  const result = await endpoint.handler(ctx, {
    method,
    params: parsed.values,
    given: parsed.given,
    query,
    raw,
    ifMatch: event.req.headers.get('if-match'),
    recheck,
    ...(target.slug !== undefined ? { pathSlug: target.slug } : {}),
    ...(target.id !== undefined ? { pathId: target.id } : {}),
  })
  return {
    ctx,
    asked: { query, given: parsed.given, params: parsed.values },
    out: answer(event, route, ctx, query, result),
  }
}

/** A request run through its route: its context, what it asked, and the response it makes. */
interface Done {
  ctx: RequestContext
  asked: Asked
  out: Outgoing
}

/** How long an answer may be kept: a 200 that no right and no password opened, for as long as the clock allows. */
function lifeToKeep(route: RouteDef, { ctx, asked, out }: Done): Life | undefined {
  if (out.status !== 200 || ctx.caller !== null || ctx.password !== undefined || 'password' in asked.query) return
  return lifeOf(route, asked, ctx.now)
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
