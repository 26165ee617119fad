import type { RouteDef } from '../http/route.ts'
import { apiIndexRoute } from './api-index.ts'
import { DIAGNOSTICS_ROUTE } from './diagnostics.ts'
import { docRoute } from './doc.ts'
import { EVENT_ROUTES } from './events.ts'
import { FEED_ROUTES } from './feeds.ts'
import { ORGANIZER_ROUTES, VENUE_ROUTES } from './linked.ts'
import { rootRoute } from './root.ts'
import { CATEGORY_ROUTES, TAG_ROUTES } from './terms.ts'

/** The resources of Almanac's namespace: what `/doc` documents. */
const RESOURCES: RouteDef[] = [
  ...EVENT_ROUTES,
  ...VENUE_ROUTES,
  ...ORGANIZER_ROUTES,
  ...CATEGORY_ROUTES,
  ...TAG_ROUTES,
  DIAGNOSTICS_ROUTE,
  ...FEED_ROUTES,
]

/**
 * Every route the app serves, in one table: the router registers it and both indexes describe it, so no route
 * can be left out of them.
 */
export function routeTable(): RouteDef[] {
  const routes: RouteDef[] = [
    apiIndexRoute(() => routes),
    rootRoute(() => routes),
    docRoute(() => RESOURCES),
    ...RESOURCES,
  ]
  return routes
}
