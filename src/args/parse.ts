import { apiError, invalidParams, type ParamIssue } from '../errors.ts'
import type { ArgSet, ArgSpec } from './types.ts'
import { toList, type ParamContext } from './validators.ts'
import { isRestTrue } from '../text.ts'

/** Request parameters after the reference's pipeline, and which of them the caller actually sent. */
export interface ParsedParams {
  values: Record<string, unknown>
  given: Set<string>
}

/**
 * Runs WordPress's argument pipeline: required check, then every validate callback
 * (defaults included), then type coercion. Throws the reference's 400 envelopes. An argument with
 * a `parse` step is checked and converted by it alone, once.
 */
export function parseParams(args: ArgSet, input: Record<string, unknown>, ctx: ParamContext): ParsedParams {
  const specs = specsOf(args)
  const values: Record<string, unknown> = {}
  const given = new Set<string>()
  // The arguments that have a value, in the arguments' order: the passes below read only those (a list has two dozen
  // arguments, and a request names a few; a name it lacks was a miss in `values` for each pass).
  const present: [string, ArgSpec][] = []
  let missing: string[] | undefined
  for (const entry of specs) {
    const [name, spec] = entry
    const raw = input[name]
    if (raw !== undefined && raw !== null) {
      values[name] = raw
      given.add(name)
      present.push(entry)
      continue
    }
    const fallback = typeof spec.default === 'function' ? spec.default(ctx) : spec.default
    if (fallback !== undefined && fallback !== null) {
      values[name] = fallback
      present.push(entry)
    } else if (spec.required) (missing ??= []).push(name)
  }
  if (missing) throw apiError('rest_missing_callback_param', missing, { params: missing })

  // Every value is there under its argument's name, in the arguments' order (which errors list them in).
  let invalid: Record<string, ParamIssue> | undefined
  // What each argument with a `parse` step became: checked and converted once, here.
  let parsed: Map<string, unknown> | undefined
  for (const [name, spec] of present) {
    const value = values[name]!
    const outside = enumIssue(name, value, spec)
    const result = outside || !spec.parse ? undefined : spec.parse(value, ctx)
    if (result !== undefined) (parsed ??= new Map()).set(name, result)
    else {
      const issue = outside ?? validateOne(name, value, spec, ctx)
      if (issue) (invalid ??= {})[name] = issue
    }
  }
  if (invalid) throw invalidParams(invalid)

  for (const [name, spec] of present) {
    const value = values[name]!
    if (parsed?.has(name)) {
      values[name] = parsed.get(name)
      continue
    }
    const issue = typeIssue(name, value, spec)
    if (issue) (invalid ??= {})[name] = issue
    else values[name] = spec.sanitize ? spec.sanitize(value, ctx) : coerce(value, spec)
  }
  if (invalid) throw invalidParams(invalid)
  return { values, given }
}

/** Each argument set's names and specs in order, listed once: a list asks through two dozen of them per request. */
const specLists = new WeakMap<ArgSet, [string, ArgSpec][]>()

function specsOf(args: ArgSet): [string, ArgSpec][] {
  let specs = specLists.get(args)
  if (!specs) specLists.set(args, (specs = Object.entries(args)))
  return specs
}

const INVALID: ParamIssue = { message: 'Invalid parameter.' }

/**
 * The issue of one argument within its listed values at the validate step, where its `parse` (if any) took
 * nothing: a `parse` that refused it, its validate callback, or its type.
 */
function validateOne(name: string, value: unknown, spec: ArgSpec, ctx: ParamContext): ParamIssue | undefined {
  if (spec.parse) return INVALID
  if (spec.validate) return spec.validate(value, ctx) ? undefined : INVALID
  return typeIssue(name, value, spec)
}

/**
 * WordPress's `rest_not_in_enum` for an argument that takes listed values (each item of a list argument), written
 * exactly; undefined when the argument lists none or the value is one of them.
 */
function enumIssue(name: string, value: unknown, spec: ArgSpec): ParamIssue | undefined {
  const allowed = spec.enum ?? spec.items?.enum
  if (!allowed) return undefined
  const items = spec.enum ? [value] : toList(value)
  if (items.length > 0 && items.every((item) => typeof item === 'string' && allowed.includes(item))) return undefined
  const message = `${name} is not one of ${allowed.join(', ')}.`
  return { message, detail: { code: 'rest_not_in_enum', message, data: { param: name } } }
}

const BOOLEAN = new Set(['true', 'false', '1', '0'])

/** The type error WordPress reports for a value that does not fit the declared type. */
function typeIssue(name: string, value: unknown, spec: ArgSpec): ParamIssue | undefined {
  if (!spec.type || fitsType(value, spec.type)) return undefined
  const message = `${name} is not of type ${spec.type}.`
  return { message, detail: { code: 'rest_invalid_type', message, data: { param: name } } }
}

function fitsType(value: unknown, type: string): boolean {
  switch (type) {
    case 'integer':
      return (
        (typeof value === 'number' && Number.isInteger(value)) ||
        (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value))
      )
    case 'number':
      return (
        (typeof value === 'number' && Number.isFinite(value)) ||
        (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
      )
    case 'boolean':
      return (
        typeof value === 'boolean' ||
        value === 0 ||
        value === 1 ||
        (typeof value === 'string' && BOOLEAN.has(value.toLowerCase()))
      )
    case 'string':
      return typeof value === 'string'
    case 'array':
      return Array.isArray(value) || typeof value === 'string'
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value)
    default:
      return true
  }
}

function coerce(value: unknown, spec: ArgSpec): unknown {
  switch (spec.type) {
    case 'integer':
    case 'number':
      return Number(value)
    case 'boolean':
      return isRestTrue(value)
    default:
      return value
  }
}

/** Reads a query string the PHP way: `a[]=1&a[]=2` is a list; otherwise the last value wins. */
export function parseQuery(search: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null)
  for (const [key, value] of search) {
    const list = /^(.+)\[\]$/.exec(key)
    if (list) {
      // Appended in place: copying the list for each `a[]=` made a form of many fields quadratic.
      const existing = out[list[1]!]
      if (Array.isArray(existing)) existing.push(value)
      else out[list[1]!] = [value]
    } else out[key] = value
  }
  return out
}
