import { LANGUAGE_NAMES, LANGUAGES } from '../languages.ts'
import { ROOT_ARGS } from '../schema/args.ts'
import { apiIndexUrl } from '../serialize/urls.ts'
import { describeRoute, routeKey } from './describe.ts'
import type { ApiRequest, ApiResult, RouteDef } from './types.ts'

/** The namespace index over the given routes, plus the languages Almanac serves (docs/compatibility.md §1). */
export function rootRoute(routes: () => RouteDef[]): RouteDef {
  const self: RouteDef = {
    path: '',
    pattern: '',
    endpoints: [{ methods: ['GET'], args: ROOT_ARGS, handler: (request) => index(request, [self, ...routes()]) }],
  }
  return self
}

function index(request: ApiRequest, routes: RouteDef[]): ApiResult {
  const described: Record<string, unknown> = {}
  for (const route of routes) described[routeKey(route)] = describeRoute(route, request.paramContext, request.view)
  return {
    body: {
      namespace: 'calendar/events/v1',
      routes: described,
      _links: { up: [{ href: apiIndexUrl(request.view.site) }] },
      languages: LANGUAGES.map((code) => ({ code, name: LANGUAGE_NAMES[code], default: code === request.view.site.defaultLang })),
    },
  }
}
