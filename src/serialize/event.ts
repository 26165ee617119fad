import type { LinkedKind, TermKind } from '../content/model/kinds.ts'
import { eventTimes, idList, type EventTimes } from '../content/model/derive.ts'
import { statusIn } from '../content/model/post-state.ts'
import type { ContentRecord, RecordFields } from '../content/store.ts'
import { abbreviation, instantToWall } from '../time/zone.ts'
import { mayRead } from '../context/request.ts'
import type { View } from './view.ts'
import { toCost } from './cost.ts'
import { toImage } from './image.ts'
import { globalIds, isProtected, postHead, toOrganizerResponse, toVenueResponse } from './linked.ts'
import type { Memo, MemoSlot } from '../context/caches.ts'
import { digest } from './memo.ts'
import { keptByEpoch, plainEpoch } from './plain-epoch.ts'
import { blankProtected, isLocked } from './protect.ts'
import { servedLang, shownSlug, text, toTranslations } from './record.ts'
import { toEmbeddedTerm } from './term.ts'
import { seriesDay, seriesFields } from './series.ts'
import { eventJsonLd } from './event-json-ld.ts'
import { statusKeys } from './event-status.ts'
import { recordRestUrl, siteKey } from './urls.ts'

type Shape = Record<string, unknown>

export interface EventOptions {
  /** Single reads carry `json_ld`. */
  jsonLd?: boolean
}

/**
 * An event exactly as the reference serves it, plus its status and attendance after `custom_fields`
 * (docs/compatibility.md §32), and `lang` and `translations` (docs/compatibility.md §1). The
 * list shape is built once and kept a while: a single read is that shape with JSON-LD in its
 * venue, organizers and itself, and lists and single reads of the same events come close together.
 */
export function toEventResponse(record: ContentRecord, view: View, options: EventOptions = {}): Shape {
  const locked = isLocked(record.source.data.password, view.password)
  const key = `event ${view.lang} ${locked} ${readerKey(view)} ${keptFor(record, view)} ${siteKey(view.site)}${seriesDay(record, view)}`
  // A password opens the event, or a venue or organizer in it, for this request alone: such
  // shapes are built each time and never kept where a request without it could find them.
  const listed =
    view.password === undefined
      ? view.caches.memo.recent(record, key, () => listShape(record, view, locked))
      : listShape(record, view, locked)
  if (!options.jsonLd || locked) return listed
  const fields = view.store.fieldsIn(record, view.lang)!
  const { lang, translations, series, recurrence, ...head } = listed
  const single: Shape = { ...head, venue: venue(fields, view, options), organizer: organizers(fields, view, options) }
  if (!fields.password) single.json_ld = eventJsonLd(single, fields, eventTimes(record, view.site.timezone), view)
  return Object.assign(single, { lang, translations }, seriesFields(record, view))
}

/** The event as lists show it: without JSON-LD; blanked when protected, as the reference does. */
function listShape(record: ContentRecord, view: View, locked: boolean): Shape {
  const fields = view.store.fieldsIn(record, view.lang)!
  const times = eventTimes(record, view.site.timezone)
  const head = postHead(record, fields, view, 'event')
  const lang = servedLang(record, view)
  const { cost, cost_details } = toCost(fields.cost, {
    symbol: view.site.currencySymbol,
    position: view.site.currencyPosition,
  })
  const event: Shape = {
    id: record.id,
    ...globalIds(record, view),
    ...head,
    rest_url: recordRestUrl(view.site, `events/${record.id}`, lang),
    title: text(fields.title),
    description: view.caches.markdown.render(fields.description),
    excerpt: view.caches.markdown.render(text(fields.excerpt)),
    slug: shownSlug(fields),
    image: toImage(fields.image, view),
    all_day: fields.all_day === true,
    ...dateFields(times),
    timezone: times.timezone,
    timezone_abbr: abbreviation(times.timezone, times.start),
    cost,
    cost_details,
    website: fields.website === undefined ? head.url : text(fields.website),
    show_map: fields.show_map !== false,
    show_map_link: fields.show_map_link !== false,
    hide_from_listings: fields.hide_from_listings === true,
    sticky: fields.sticky === true,
    featured: fields.featured === true,
    categories: terms(fields.categories, 'categories', view),
    tags: terms(fields.tags, 'tags', view),
    venue: venue(fields, view, {}),
    organizer: organizers(fields, view, {}),
    custom_fields: [],
    ...statusKeys(fields),
  }
  const out = locked ? blankProtected(event) : event
  out.lang = lang
  out.translations = toTranslations(record, view, `events/${record.id}`)
  return Object.assign(out, seriesFields(record, view))
}

function dateFields(times: EventTimes): Shape {
  const utcStart = instantToWall(times.start, 'UTC')
  const utcEnd = instantToWall(times.end, 'UTC')
  return {
    start_date: times.startWall,
    start_date_details: dateDetails(times.startWall),
    end_date: times.endWall,
    end_date_details: dateDetails(times.endWall),
    utc_start_date: utcStart,
    utc_start_date_details: dateDetails(utcStart),
    utc_end_date: utcEnd,
    utc_end_date_details: dateDetails(utcEnd),
  }
}

/**
 * The JSON text of `toEventResponse` and its digest, memoized per record, language, shape and store
 * version; not for a request with a password, whose answer is its own (see `toEventResponse`).
 */
export function toEventJson(
  record: ContentRecord,
  view: View,
  options: EventOptions = {},
  key: string = eventKey(view, options),
  slot?: MemoSlot,
): Memo {
  if (view.password !== undefined) {
    const bytes = Buffer.from(JSON.stringify(toEventResponse(record, view, options)))
    return { bytes, digest: digest(bytes) }
  }
  // Found first, by the list's key alone: a list asks for dozens of events, nearly all kept, and this reads nothing
  // of the record's fields (each a miss of the processor's caches: a tenth of a varied list's handler). A plain event
  // or an occurrence is kept under that key, while the epoch of what it shows stays; a series, which lists its next
  // occurrences, under the key with its store version and day, so it is never found by the key alone. Whether the
  // event has a password needs no place in the key: it is the record's, and a record is never changed.
  const memo = view.caches.memo.json
  const found = memo.find(record, key, slot)
  if (found) return found
  if (keptByEpoch(record)) return memo.keep(record, key, toEventResponse(record, view, options), slot)
  // Marked as a series' own: no plain key begins with `series|` (a plain key begins with its language).
  const dated = `series|${key}|${view.store.version}${seriesDay(record, view)}`
  return memo.find(record, dated) ?? memo.keep(record, dated, toEventResponse(record, view, options))
}

/** The options of an event in a list: one object for every call. */
export const LISTED: EventOptions = Object.freeze({})

/**
 * What an event's memoized JSON depends on besides the event: the same for every event of a list, made once for it,
 * and the same string object for every list that shows the same (`canonical`): a memo's key is then found by
 * comparing pointers, not read.
 */
export function eventKey(view: View, options: EventOptions = {}): string {
  return view.caches.memo.json.canonical(
    `${view.lang}|${options.jsonLd === true}|${readerKey(view)}|e${plainEpoch(view.caches.memo, view.store)}|${siteKey(view.site)}`,
  )
}

/** What an event's kept shape depends on besides the event: the plain epoch, or a series' store version. */
function keptFor(record: ContentRecord, view: View): string {
  return keptByEpoch(record) ? `e${plainEpoch(view.caches.memo, view.store)}` : String(view.store.version)
}

/** Who reads: the embedded venue and organizers an event shows depend on it. */
function readerKey(view: View): string {
  return String(view.reader ?? 'none')
}

/** `{year, month, day, hour, minutes, seconds}` as zero-padded strings. */
export function dateDetails(wall: string) {
  return {
    year: wall.slice(0, 4),
    month: wall.slice(5, 7),
    day: wall.slice(8, 10),
    hour: wall.slice(11, 13),
    minutes: wall.slice(14, 16),
    seconds: wall.slice(17, 19),
  }
}

/** Embedded terms, name ascending as WordPress orders them; ids that name nothing are skipped. */
export function terms(value: unknown, kind: TermKind, view: View) {
  return idList(value)
    .map((id) => view.store.get(kind, id))
    .filter((record) => record !== undefined && view.store.langOf(record, view.lang) !== null)
    .map((record) =>
      view.caches.memo.shape(record!, `embedded ${view.lang} ${siteKey(view.site)}`, view.store.version, () =>
        toEmbeddedTerm(record!, view),
      ),
    )
    .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id)
}

/** The venue object, or `[]` when there is none (the reference's odd corner); single reads embed its JSON-LD. */
export function venue(fields: RecordFields, view: View, options: EventOptions): Shape | [] {
  const record = linked(idList(fields.venue), 'venues', view)[0]
  return record ? embedded(record, view, options, toVenueResponse) : []
}

export function organizers(fields: RecordFields, view: View, options: EventOptions): Shape[] {
  return linked(idList(fields.organizer), 'organizers', view).map((record) =>
    embedded(record, view, options, toOrganizerResponse),
  )
}

/**
 * The linked venues or organizers an event shows this caller: those in the asked language that the
 * caller may read. The reference embeds drafts and private ones in public events; Almanac shows a
 * record that is not published only to whom its single read would (editors, and its author).
 */
function linked(ids: number[], kind: LinkedKind, view: View): ContentRecord[] {
  return ids
    .map((id) => view.store.get(kind, id))
    .filter((record): record is ContentRecord => record !== undefined && view.store.langOf(record, view.lang) !== null)
    .filter((record) => mayRead(view.reader, statusIn(record.source.data), Number(record.source.data.author) || 0))
}

/**
 * A venue or organizer inside an event, built once per language, shape and store version; one that
 * a password opened is built for this request alone, never kept where others could find it.
 */
function embedded(record: ContentRecord, view: View, options: EventOptions, build: typeof toVenueResponse): Shape {
  const jsonLd = options.jsonLd === true
  if (isProtected(record) && !isLocked(record.source.data.password, view.password))
    return build(record, view, { jsonLd })
  const key = `embedded ${view.lang} ${jsonLd} ${siteKey(view.site)}`
  return view.caches.memo.shape(record, key, view.store.version, () =>
    build(record, { ...view, password: undefined } as View, { jsonLd }),
  )
}
