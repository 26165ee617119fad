import type { ArgSet } from '../schema/args.ts'
import type { ParamContext } from '../schema/validators.ts'
import { NAMESPACE, type View } from '../serialize/context.ts'
import { link, restRoot } from '../serialize/urls.ts'
import type { RouteDef } from './types.ts'

// Keys of an argument that are checks, not schema: the index never shows them (WP-Srv `get_data_for_route`).
const HIDDEN = new Set(['validate', 'sanitize', 'required'])

/** A route as the namespace index and OPTIONS describe it. */
export function describeRoute(route: RouteDef, ctx: ParamContext, view: View) {
  const methods = route.endpoints.flatMap((endpoint) => endpoint.methods)
  const description: Record<string, unknown> = {
    namespace: NAMESPACE,
    methods,
    endpoints: route.endpoints.map((endpoint) => ({ methods: endpoint.methods, args: describeArgs(endpoint.args, ctx) })),
  }
  // WordPress links only the routes that have no parameters in their path.
  if (!route.pattern.includes('(')) description._links = { self: [{ href: link(view.site, `${restRoot(view)}${route.pattern.replace(/^\//, '')}`.replace(/\/$/, '')) }] }
  return description
}

/** Each argument's schema keywords in declaration order, defaults evaluated now, `required` last. */
function describeArgs(args: ArgSet, ctx: ParamContext): Record<string, unknown> | [] {
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

/** The full regex key of a route in the namespace index: `/calendar/events/v1/events/(?P<id>\d+)`. */
export function routeKey(route: RouteDef): string {
  return `/${NAMESPACE}${route.pattern}`
}
