import type { LinkedArg } from '../args/linked-entries.ts'
import { outOfRange } from '../content/checks/date-range.ts'
import { eventTimes } from '../content/model/derive.ts'
import type { ContentRecord, FileWrite } from '../content/store.ts'
import type { Lang } from '../languages.ts'
import { idList } from '../content/model/derive.ts'
import { invalidParam, invalidParams } from '../errors.ts'
import { wallToInstant } from '../time/zone.ts'
import { planFiles, type Changes } from './changes.ts'
import type { WriteContext } from './transaction.ts'
import { untrash } from './removal.ts'
import { applyLinked, modifiedAfter, nowWall, planLinked, toImageValue } from './linked.ts'
import { checkAuthor, publicationDate, writtenStatus } from './posts.ts'
import { slugify, uniqueSlug } from '../content/slugs.ts'
import { resolveTerms } from './terms.ts'
import { prepareMarkdownOf, sanitizeChanges } from './sanitize.ts'
import { recurrenceOf, refuseInvalidSeries, withoutTranslationOverrides } from './series.ts'
import { statusChanges, wallIn, writeZone } from './event-status.ts'

const TEXT = ['title', 'excerpt', 'website', 'password']
const FLAGS = ['all_day', 'show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured']
/**
 * The most categories, tags or organizers one event write may name. Each new term or inline
 * organizer is a file written in the request: 3,000 new category names held every write for a minute.
 */
export const MAX_LINKS = 100

/** POST /events: a new event from its arguments, its source file in the request's language. */
export async function createEvent(
  params: Record<string, unknown>,
  given: Set<string>,
  ctx: WriteContext,
): Promise<ContentRecord> {
  const changes = await eventChanges(params, given, ctx, undefined)
  // Its id is taken last: inline venues and organizers created above took theirs first.
  const id = ctx.tx.nextId('post')
  // Events created through the API without map flags store false, as upstream (docs/compatibility.md §4).
  changes.show_map ??= false
  changes.show_map_link ??= false
  const files = planFiles('events', undefined, ctx.lang, { id, ...changes })
  if (changes.recurrence) refuseInvalidSeries(files, ctx.lang, ctx.site.timezone)
  return (await ctx.tx.commit('events', ctx.store.newStem('events', String(changes.slug), id), files))!
}

/**
 * POST/PUT/PATCH on an event: only the fields sent change (docs/compatibility.md §4); updating a trashed
 * event restores it. A series' occurrences follow it; `recurrence: null` makes it a single event again.
 */
export async function updateEvent(
  event: ContentRecord,
  params: Record<string, unknown>,
  given: Set<string>,
  ctx: WriteContext,
): Promise<ContentRecord> {
  const changes = await eventChanges(params, given, ctx, event)
  untrash(event, given, changes, ctx.caller)
  let files: Partial<Record<Lang, FileWrite | null>> = planFiles('events', event, ctx.lang, changes)
  if (changes.recurrence === null) files = withoutTranslationOverrides(ctx.store, event, files)
  if (changes.recurrence || event.source.data.recurrence !== undefined)
    refuseInvalidSeries(files, event.source.lang, ctx.site.timezone)
  return (await ctx.tx.commit('events', event.stem, files))!
}

/**
 * The changes of an event write. Every check runs before the first record is written (inline
 * venues and organizers, new terms), so a refused write leaves nothing behind.
 */
export async function eventChanges(
  params: Record<string, unknown>,
  given: Set<string>,
  ctx: WriteContext,
  event: ContentRecord | undefined,
): Promise<Changes> {
  checkAuthor(params, given, ctx.caller, event === undefined)
  for (const field of ['categories', 'tags', 'organizer']) {
    // The organizers as sent: their argument is parsed (args/linked-entries.ts).
    const value = field === 'organizer' ? (params.organizer as LinkedArg | undefined)?.sent : params[field]
    if (given.has(field) && countOf(value) > MAX_LINKS)
      throw invalidParam(field, `${field} takes at most ${MAX_LINKS} items.`)
  }
  const sent = (field: string) => given.has(field) && params[field] !== undefined && params[field] !== null
  const changes = plainChanges(params, sent, ctx, event)
  if (given.has('recurrence')) {
    changes.recurrence = recurrenceOf(params.recurrence)
    if (changes.recurrence === null) changes.overrides = null
  }
  await prepareMarkdownOf(changes, ctx.caches.markdown)
  Object.assign(changes, eventDates(params, given, ctx, event))
  Object.assign(changes, statusChanges(params, given, ctx, event, changes))
  const venue = given.has('venue') ? planLinked('venues', params.venue as LinkedArg, ctx) : undefined
  const organizer = given.has('organizer') ? planLinked('organizers', params.organizer as LinkedArg, ctx) : undefined
  // Checked: from here on the write goes through.
  if (sent('categories')) changes.categories = emptyToNull(await resolveTerms('categories', params.categories, ctx))
  if (sent('tags')) changes.tags = emptyToNull(await resolveTerms('tags', params.tags, ctx))
  if (venue !== undefined) changes.venue = await applyLinked('venues', venue, ctx)
  if (organizer !== undefined) changes.organizer = await applyLinked('organizers', organizer, ctx)
  return changes
}

/** The `modified` of the venue and organizers an event links to: a feed's SEQUENCE counts the latest. */
function linkedModified(ctx: WriteContext, event: ContentRecord | undefined): unknown[] {
  if (!event) return []
  const data = event.source.data
  const linked = [
    ...idList(data.venue).map((id) => ctx.store.get('venues', id)),
    ...idList(data.organizer).map((id) => ctx.store.get('organizers', id)),
  ]
  return linked.map((record) => record?.source.data.modified)
}

/** The fields of an event write that need no other record: text, flags, dates of publication, status, slug. */
function plainChanges(
  params: Record<string, unknown>,
  sent: (field: string) => boolean,
  ctx: WriteContext,
  event: ContentRecord | undefined,
): Changes {
  const changes: Changes = {}
  for (const field of TEXT)
    if (sent(field)) changes[field] = params[field] === '' && field !== 'website' ? null : String(params[field])
  for (const field of FLAGS) if (sent(field)) changes[field] = params[field] === true
  if (sent('description')) changes.description = String(params.description)
  if (sent('timezone')) changes.timezone = params.timezone === '' ? ctx.site.timezone : String(params.timezone)
  if (sent('author')) changes.author = Number(params.author)
  if (sent('image')) changes.image = params.image === '' ? null : toImageValue(params.image)
  if (sent('cost')) changes.cost = costValue(params.cost, event === undefined)
  const date = publicationDate(params, ctx.site.timezone, ctx.now)
  if (date) changes.date = date.wall
  // Every write moves the modification date, as WordPress's post_modified does.
  changes.modified = modifiedAfter(ctx, event?.source.data.modified, ...linkedModified(ctx, event))
  if (!event) {
    changes.date ??= nowWall(ctx)
    changes.author ??= ctx.caller.id
    changes.timezone ??= ctx.site.timezone
  }
  if (sent('status') || !event) {
    const published = date?.instant ?? (event ? undefined : ctx.now)
    changes.status = writtenStatus(params.status, ctx.caller, published, ctx.now)
  }
  sanitizeChanges(changes, ctx)
  if (sent('slug') || !event) {
    const base = slugify(String(sent('slug') ? params.slug : (changes.title ?? '')))
    changes.slug = uniqueSlug(ctx.store, 'events', ctx.lang, base, event?.id)
  }
  return changes
}

/**
 * Start and end as wall clocks in the event's zone: text without an offset is read in that
 * zone, instants are converted to it; all-day events span whole days. A lone date applies (docs/compatibility.md §4);
 * an end before the start is refused, naming end_date (docs/compatibility.md §7).
 */
function eventDates(
  params: Record<string, unknown>,
  given: Set<string>,
  ctx: WriteContext,
  event: ContentRecord | undefined,
): Changes {
  const current = event ? eventTimes(event, ctx.site.timezone) : undefined
  const zone = writeZone(params, given, ctx, event)
  const read = (field: string) => wallIn(params[field], zone, ctx.now, field)
  let start = given.has('start_date') ? read('start_date') : current?.startWall
  let end = given.has('end_date') ? read('end_date') : current?.endWall
  const allDay = given.has('all_day') ? params.all_day === true : event?.source.data.all_day === true
  if (allDay && start && end) {
    start = `${start.slice(0, 10)} 00:00:00`
    end = `${end.slice(0, 10)} 23:59:59`
  }
  if (start && end && wallToInstant(end, zone) < wallToInstant(start, zone)) throw invalidParam('end_date')
  // A date kept in a new zone, or widened to its whole day, may leave the range a content file may hold.
  const outside = Object.entries({ start_date: start, end_date: end }).flatMap(([field, wall]) =>
    wall === undefined ? [] : outOfRange(field, wall, zone).map((message) => [field, { message }] as const),
  )
  if (outside.length > 0) throw invalidParams(Object.fromEntries(outside))
  const changes: Changes = {}
  if (start !== current?.startWall) changes.start_date = start
  if (end !== current?.endWall) changes.end_date = end
  return changes
}

/**
 * A cost as stored: text or a list of texts. A lone "0" on create is dropped, as upstream does
 * (docs/compatibility.md §30).
 */
function costValue(cost: unknown, creating: boolean): string | string[] | null {
  if (Array.isArray(cost)) return cost.length === 0 ? null : cost.map(String)
  const text = String(cost)
  if (text === '' || (creating && text === '0')) return null
  return text
}

function emptyToNull(ids: number[]): number[] | null {
  return ids.length === 0 ? null : ids
}

/** How many items a list argument names: an array's length, or a comma-separated string's parts. */
function countOf(value: unknown): number {
  if (Array.isArray(value)) return value.length
  return typeof value === 'string' ? value.split(',').length : 1
}
