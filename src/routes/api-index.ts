import { API_INDEX_ARGS } from '../args/root.ts'
import type { Site } from '../context/site.ts'
import { offsetAt, zoneFor } from '../time/zone.ts'
import { describeRoute, namespaceOf, routeKey } from './describe.ts'
import type { RequestContext } from '../context/request.ts'
import type { ApiResult, RouteDef } from '../http/route.ts'

/** Where WordPress sends readers of its index for help. */
const HELP = 'https://developer.wordpress.org/rest-api/'

/**
 * `GET {api_root}/`: the site and every route of the given table, as WordPress's REST index
 * answers (the address every response's `Link` header names). The table includes this route.
 */
export function apiIndexRoute(routes: () => RouteDef[]): RouteDef {
  return {
    namespace: '',
    path: '',
    pattern: '',
    endpoints: [{ methods: ['GET'], args: API_INDEX_ARGS, handler: (ctx) => apiIndex(ctx, routes()) }],
  }
}

function apiIndex(ctx: RequestContext, routes: RouteDef[]): ApiResult {
  const { site } = ctx
  const described: Record<string, unknown> = {}
  for (const route of routes) described[routeKey(route)] = describeRoute(route, ctx)
  return {
    body: {
      name: site.name ?? 'Almanac',
      description: site.description ?? '',
      url: site.url,
      home: site.url,
      ...timeZoneOf(site, ctx.now),
      namespaces: [...new Set(routes.map(namespaceOf).filter(Boolean))],
      // WordPress lists the ways to obtain credentials; Almanac's are made with `almanac user`, offline.
      authentication: [],
      routes: described,
      _links: { help: [{ href: HELP }] },
    },
  }
}

/**
 * `gmt_offset` (hours from UTC now, a number) and `timezone_string`: a named zone is given by
 * name, a fixed offset (`UTC+8`) only as the offset, as WordPress stores a manual offset.
 */
function timeZoneOf(site: Site, now: number): { gmt_offset: number; timezone_string: string } {
  const zone = zoneFor(site.timezone)
  const offset = zone ? offsetAt(zone, now) / 60 : 0
  return { gmt_offset: offset, timezone_string: /^UTC[+-]/.test(site.timezone) ? '' : site.timezone }
}
