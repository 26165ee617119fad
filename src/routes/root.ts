import { LANGUAGE_NAMES, LANGUAGES } from '../languages.ts'
import { ROOT_ARGS } from '../args/root.ts'
import { NAMESPACE } from '../namespace.ts'
import { apiBase, link } from '../serialize/urls.ts'
import { describeRoute, namespaceOf, routeKey } from './describe.ts'
import type { RequestContext } from '../context/request.ts'
import type { ApiResult, RouteDef } from '../http/route.ts'

/**
 * The namespace index over the routes of Almanac's namespace in the given table (this one
 * included), plus the languages Almanac serves (docs/compatibility.md §1); `up` leads to the API index.
 */
export function rootRoute(routes: () => RouteDef[]): RouteDef {
  return {
    path: '',
    pattern: '',
    endpoints: [
      {
        methods: ['GET'],
        args: ROOT_ARGS,
        handler: (ctx) =>
          index(
            ctx,
            routes().filter((route) => namespaceOf(route) === NAMESPACE),
          ),
      },
    ],
  }
}

function index(ctx: RequestContext, routes: RouteDef[]): ApiResult {
  const described: Record<string, unknown> = {}
  for (const route of routes) described[routeKey(route)] = describeRoute(route, ctx)
  return {
    body: {
      namespace: NAMESPACE,
      routes: described,
      _links: { up: [{ href: link(ctx.site, apiBase(ctx)) }] },
      languages: LANGUAGES.map((code) => ({
        code,
        name: LANGUAGE_NAMES[code],
        default: code === ctx.site.defaultLang,
      })),
    },
  }
}
