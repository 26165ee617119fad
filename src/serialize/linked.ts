import { postDates } from '../content/model/derive.ts'
import { statusIn } from '../content/model/post-state.ts'
import type { ContentRecord, RecordFields } from '../content/store.ts'
import type { View } from './view.ts'
import { toImage } from './image.ts'
import { escapeHtml } from './markdown-it.ts'
import { blankProtected, isLocked } from './protect.ts'
import { servedLang, shownSlug, slugSegment, text, toTranslations } from './record.ts'
import { publicUrl } from './urls.ts'

export interface LinkedOptions {
  /** Single reads carry `json_ld`, unless the record has a password (docs/compatibility.md §21). */
  jsonLd?: boolean
  /** Top-level records carry `translations`; embedded ones `lang` only (docs/compatibility.md §1). */
  top?: boolean
}

type Shape = Record<string, unknown>

/** A venue as the reference serves it: falsy values dropped, then the map flags and ids. */
export function toVenueResponse(record: ContentRecord, view: View, options: LinkedOptions = {}): Shape {
  const fields = view.store.fieldsIn(record, view.lang)!
  const head = postHead(record, fields, view, 'venue')
  const address = {
    address: text(fields.address),
    city: text(fields.city),
    country: text(fields.country),
    province: text(fields.province),
    state: text(fields.state),
    zip: text(fields.zip),
  }
  const body: Shape = {
    ...head,
    venue: text(fields.venue),
    description: view.caches.markdown.render(fields.description),
    excerpt: '',
    slug: shownSlug(fields),
    image: toImage(fields.image, view),
    ...address,
    phone: text(fields.phone),
    website: text(fields.website),
    stateprovince: stateProvince(fields),
  }
  if (typeof fields.geo_lat === 'number' && typeof fields.geo_lng === 'number') {
    body.geo_lat = fields.geo_lat
    body.geo_lng = fields.geo_lng
  }
  if (options.jsonLd && !isProtected(record)) body.json_ld = venueJsonLd(body)
  const venue: Shape = dropFalsy(body)
  venue.show_map = fields.show_map !== false
  venue.show_map_link = fields.show_map_link !== false
  Object.assign(venue, globalIds(record, view))
  return finish(record, view, venue, options, 'venues')
}

/** An organizer as the reference serves it. */
export function toOrganizerResponse(record: ContentRecord, view: View, options: LinkedOptions = {}): Shape {
  const fields = view.store.fieldsIn(record, view.lang)!
  const body: Shape = {
    ...postHead(record, fields, view, 'organizer'),
    organizer: text(fields.organizer),
    description: view.caches.markdown.render(fields.description),
    excerpt: '',
    slug: shownSlug(fields),
    image: toImage(fields.image, view),
    phone: text(fields.phone),
    website: text(fields.website),
    email: text(fields.email),
  }
  if (options.jsonLd && !isProtected(record)) body.json_ld = organizerJsonLd(body)
  const organizer = dropFalsy({ ...body, ...globalIds(record, view) })
  return finish(record, view, organizer, options, 'organizers')
}

/** The JSON-LD `Place` of a venue, also used as an event's `location`. */
export function venueJsonLd(venue: Shape): Shape {
  const address = dropFalsy({
    '@type': 'PostalAddress',
    streetAddress: venue.address,
    addressLocality: venue.city,
    addressRegion: venue.stateprovince || venue.province,
    postalCode: venue.zip,
    addressCountry: venue.country,
  })
  const place: Shape = {
    '@type': 'Place',
    name: venue.venue,
    description: escapeHtml(text(venue.description)),
    url: venue.url,
    address,
  }
  if (typeof venue.geo_lat === 'number')
    place.geo = { '@type': 'GeoCoordinates', latitude: venue.geo_lat, longitude: venue.geo_lng }
  place.telephone = text(venue.phone)
  place.sameAs = text(venue.website)
  return place
}

/** The JSON-LD `Person` of an organizer; the e-mail is entity-encoded against harvesters, as upstream. */
export function organizerJsonLd(organizer: Shape): Shape {
  return {
    '@type': 'Person',
    name: organizer.organizer,
    description: escapeHtml(text(organizer.description)),
    url: text(organizer.website),
    telephone: text(organizer.phone),
    email: [...text(organizer.email)].map((c, i) => (i % 2 === 0 ? `&#${c.codePointAt(0)};` : c)).join(''),
    sameAs: text(organizer.website),
  }
}

/** The keys every post starts with: id, author, status, dates and public url. */
export function postHead(
  record: ContentRecord,
  fields: RecordFields,
  view: View,
  type: 'event' | 'venue' | 'organizer',
): Shape {
  const dates = postDates(record, view.site.timezone)
  const status = statusIn(fields)
  return {
    id: record.id,
    author: String(fields.author ?? 0),
    status,
    date: dates.date,
    date_utc: dates.dateUtc,
    modified: dates.modified,
    modified_utc: dates.modifiedUtc,
    url: postUrl(record, fields, view, type, status),
  }
}

/**
 * A post's public page; posts that have none (drafts, trash) get WordPress's `?p=` form, and so does a published
 * one whose file names no slug (`/event//` is no page).
 */
function postUrl(record: ContentRecord, fields: RecordFields, view: View, type: string, status: string): string {
  if (status === 'publish' || status === 'private') {
    const lang = servedLang(record, view)
    // An occurrence's page is its series' with the date, as The Events Calendar Pro has it (docs/recurrence.md).
    const series = record.series
    const slug = series ? view.store.fieldsIn(series.parent, lang)?.slug : fields.slug
    const date = series ? `${series.start.slice(0, 10)}/` : ''
    if (slug !== undefined && slug !== null && slug !== '')
      return publicUrl(view.site, lang, `/${type}/${slugSegment(slug)}/${date}`)
  }
  return `${view.site.url}/?post_type=tribe_${type === 'event' ? 'events' : type}&p=${record.id}`
}

/** `global_id` and `global_id_lineage`: `<site host>?id=<id>`. */
export function globalIds(record: ContentRecord, view: View): Shape {
  const id = `${view.site.host}?id=${record.id}`
  return { global_id: id, global_id_lineage: [id] }
}

function finish(record: ContentRecord, view: View, shape: Shape, options: LinkedOptions, path: string): Shape {
  const locked = isLocked(record.source.data.password, view.password)
  const out = locked ? blankProtected(shape) : shape
  out.lang = servedLang(record, view)
  if (options.top) out.translations = toTranslations(record, view, `${path}/${record.id}`)
  return out
}

/** `stateprovince`: the explicit value, else the US state, else the province (Venue `save_meta`). */
function stateProvince(fields: RecordFields): string {
  if (fields.stateprovince) return text(fields.stateprovince)
  const country = text(fields.country)
  if (fields.state && (country === '' || /^(us|usa|united states)$/i.test(country))) return text(fields.state)
  return text(fields.province)
}

/**
 * Whether a post has a password: its JSON-LD is never served, and events name it `false` in theirs
 * (docs/compatibility.md §21).
 */
export function isProtected(record: ContentRecord): boolean {
  const password = record.source.data.password
  return typeof password === 'string' && password !== ''
}

/** PHP's falsy values: '', '0', 0, false, null and empty arrays. */
function dropFalsy(shape: Shape): Shape {
  const out: Shape = {}
  for (const [key, value] of Object.entries(shape)) {
    const falsy =
      value === '' || value === '0' || value === 0 || value === false || value === null || value === undefined
    if (!falsy && !(Array.isArray(value) && value.length === 0)) out[key] = value
  }
  return out
}
