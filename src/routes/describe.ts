import type { ArgSet } from '../args/types.ts'
import type { RequestContext } from '../context/request.ts'
import { NAMESPACE } from '../namespace.ts'
import { apiBase, link } from '../serialize/urls.ts'
import type { RouteDef } from '../http/route.ts'

// Keys of an argument that are checks, not schema: the indexes never show them, as WordPress does not.
const HIDDEN = new Set(['validate', 'sanitize', 'parse', 'required'])

/** A route as the API index, the namespace index and OPTIONS describe it. */
export function describeRoute(route: RouteDef, ctx: RequestContext) {
  const methods = route.endpoints.flatMap((endpoint) => endpoint.methods)
  const description: Record<string, unknown> = {
    namespace: namespaceOf(route),
    methods,
    endpoints: route.endpoints.map((endpoint) => ({
      methods: endpoint.methods,
      args: describeArgs(endpoint.args, ctx),
    })),
  }
  // WordPress links only the routes that have no parameters in their path.
  if (!route.pattern.includes('('))
    description._links = { self: [{ href: link(ctx.site, `${apiBase(ctx)}${routeKey(route).slice(1)}`) }] }
  return description
}

/** Each argument's schema keywords in declaration order, defaults evaluated now, `required` last. */
function describeArgs(args: ArgSet, ctx: RequestContext): Record<string, unknown> | [] {
  const names = Object.keys(args)
  if (names.length === 0) return []
  const out: Record<string, unknown> = {}
  for (const name of names) {
    const spec = args[name]!
    const shown: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(spec)) {
      if (HIDDEN.has(key)) continue
      shown[key] = key === 'default' && typeof value === 'function' ? value(ctx) : value
    }
    shown.required = spec.required
    out[name] = shown
  }
  return out
}

/** The namespace a route belongs to: Almanac's unless it says otherwise. */
export function namespaceOf(route: RouteDef): string {
  return route.namespace ?? NAMESPACE
}

/** The full regex key of a route in the indexes: `/calendar/events/v1/events/(?P<id>\d+)`; `/` for the API index. */
export function routeKey(route: RouteDef): string {
  const namespace = namespaceOf(route)
  return (namespace ? `/${namespace}${route.pattern}` : route.pattern) || '/'
}
