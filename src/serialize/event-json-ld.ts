import type { EventTimes } from '../content/model/derive.ts'
import { statusDetailsOf } from '../content/model/event-status.ts'
import type { LinkedKind } from '../content/model/kinds.ts'
import type { RecordFields } from '../content/store.ts'
import { instantToIso, wallToInstant } from '../time/zone.ts'
import { lowestPrice } from './cost.ts'
import { locationLd, previousStartLd, statusLd } from './event-status.ts'
import { isProtected, organizerJsonLd, venueJsonLd } from './linked.ts'
import { escapeHtml } from './markdown-it.ts'
import { text } from './record.ts'
import type { View } from './view.ts'

// The schema.org `Event` of a single read, as the reference writes it, with the status, attendance mode and
// online location Google's event guidance asks for (docs/compatibility.md §32).

type Shape = Record<string, unknown>

function protectedPost(view: View, kind: LinkedKind, id: unknown): boolean {
  const record = view.store.get(kind, id as number)
  return record === undefined || isProtected(record)
}

/** schema.org `Event` for single reads, from the event's answer (`event`) and its fields in the language served. */
export function eventJsonLd(event: Shape, fields: RecordFields, times: EventTimes, view: View): Shape {
  const excerpt = text(fields.excerpt) || text(fields.description).split(/\n\s*\n/)[0] || ''
  const details = statusDetailsOf(fields)
  const ld: Shape = {
    '@context': 'http://schema.org',
    '@type': 'Event',
    name: event.title,
    description: escapeHtml(view.caches.markdown.render(excerpt)),
  }
  const image = event.image as Shape | false
  if (image) ld.image = image.url
  Object.assign(ld, {
    url: event.url,
    ...statusLd(details),
    startDate: instantToIso(times.start, times.timezone),
    endDate: instantToIso(times.end, times.timezone),
    ...previousStartLd(details, times.timezone),
  })
  // A password-protected venue or organizer is `false` in JSON-LD, opened by a password or not
  // (docs/compatibility.md §21).
  const venue = event.venue as Shape | []
  const place = Array.isArray(venue) ? undefined : protectedPost(view, 'venues', venue.id) ? false : venueJsonLd(venue)
  const location = locationLd(details, place)
  if (location !== undefined) ld.location = location
  const organizer = (event.organizer as Shape[])[0]
  if (organizer) ld.organizer = protectedPost(view, 'organizers', organizer.id) ? false : organizerJsonLd(organizer)
  if (event.cost !== '') {
    ld.offers = {
      '@type': 'Offer',
      price: lowestPrice(event.cost_details as never),
      priceCurrency: view.site.currency,
      url: event.url,
      category: 'primary',
      availability: 'inStock',
      validFrom: instantToIso(
        wallToInstant(`${String(event.date).slice(0, 10)} 00:00:00`, view.site.timezone),
        view.site.timezone,
      ),
    }
  }
  ld.performer = 'Organization'
  return ld
}
