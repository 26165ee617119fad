import type { LinkedKind } from '../content/model/kinds.ts'
import { ApiError } from '../errors.ts'
import { type ParsedParams, parseParams } from './parse.ts'
import { isPositiveInt, type ParamContext, toList } from './validators.ts'
import { ORGANIZER_CREATE_ARGS, VENUE_CREATE_ARGS } from './write-linked.ts'

// An event's `venue` and `organizer` arguments, checked and parsed in one step (docs/compatibility.md §4,
// docs/compatibility.md §11): ids, `{id}`, new entries (checked against the venue or organizer create
// table, once), lists, CSV for organizers; empty clears the link. The write plans from what this leaves.

/** One item: an existing record's id, a new record's parsed arguments, or an entry with a bad field. */
export type LinkedItem = { id: number } | { entry: ParsedParams } | { badField: true }

/** The argument as its check left it: `items` null clears the link; `sent` is the value as sent. */
export interface LinkedArg {
  sent: unknown
  items: LinkedItem[] | null
}

const NAME = { venues: 'venue', organizers: 'organizer' } as const
const CREATE_ARGS = { venues: VENUE_CREATE_ARGS, organizers: ORGANIZER_CREATE_ARGS }

const isEmpty = (value: unknown) =>
  value === '' || value === 0 || value === '0' || (Array.isArray(value) && value.length === 0)

/** A venue: an id (bare, as text or as `{id}`), one new venue's data, or empty; undefined when refused. */
export function parseVenue(value: unknown, ctx: ParamContext): LinkedArg | undefined {
  if (isEmpty(value)) return { sent: value, items: null }
  return parseItems('venues', value, Array.isArray(value) ? value : [value], ctx)
}

/**
 * Organizers in any reasonable form: id, object, a list of ids and objects, or a CSV of ids; undefined when
 * refused.
 */
export function parseOrganizers(value: unknown, ctx: ParamContext): LinkedArg | undefined {
  if (isEmpty(value)) return { sent: value, items: null }
  const list = typeof value === 'string' ? toList(value) : Array.isArray(value) ? value : [value]
  return list.length > 0 ? parseItems('organizers', value, list, ctx) : undefined
}

function parseItems(kind: LinkedKind, sent: unknown, list: unknown[], ctx: ParamContext): LinkedArg | undefined {
  const items: LinkedItem[] = []
  for (const item of list) {
    const parsed = parseItem(kind, item, ctx)
    if (!parsed) return undefined
    items.push(parsed)
  }
  return { sent, items }
}

function parseItem(kind: LinkedKind, item: unknown, ctx: ParamContext): LinkedItem | undefined {
  if (typeof item === 'number' || (typeof item === 'string' && /^\d+$/.test(item)))
    return existing(kind, Number(item), ctx)
  if (!item || typeof item !== 'object' || Array.isArray(item)) return undefined
  const entry = item as Record<string, unknown>
  if (entry.id !== undefined) return isPositiveInt(entry.id, ctx) ? existing(kind, Number(entry.id), ctx) : undefined
  return parseEntry(kind, entry, ctx)
}

function existing(kind: LinkedKind, id: number, ctx: ParamContext): LinkedItem | undefined {
  return ctx.store.get(kind, id) !== undefined ? { id } : undefined
}

/**
 * A new record's data through its create table. A missing or bad name refuses the argument now; any
 * other bad field is kept as such and refused when the write plans it, after the event's own checks.
 */
function parseEntry(kind: LinkedKind, entry: Record<string, unknown>, ctx: ParamContext): LinkedItem | undefined {
  try {
    return { entry: parseParams(CREATE_ARGS[kind], entry, ctx) }
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    return namesOf(error).includes(NAME[kind]) ? undefined : { badField: true }
  }
}

/** The parameters a `rest_missing_callback_param` or `rest_invalid_param` error names. */
function namesOf(error: ApiError): string[] {
  const params = error.extra.params
  if (Array.isArray(params)) return params.map(String)
  return params && typeof params === 'object' ? Object.keys(params) : []
}
