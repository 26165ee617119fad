import type { ParamContext, Validator } from './validators.ts'

// The arguments of every route, in the reference's declaration order and with its descriptions
// and defaults. One table drives validation, the namespace index, OPTIONS and /doc.

/** One argument: the schema keywords shown by the index, plus the checks that run on it. */
export interface ArgSpec {
  default?: unknown | ((ctx: ParamContext) => unknown)
  description?: string
  type?: 'integer' | 'string' | 'boolean' | 'number' | 'array' | 'object'
  format?: string
  /** The values the argument takes, written exactly (an argument of Almanac's own: docs/compatibility.md §32). */
  enum?: readonly string[]
  items?: { type: string; enum?: readonly string[] }
  required: boolean
  validate?: Validator
  sanitize?: (value: unknown, ctx: ParamContext) => unknown
  /** Checks and converts in one step, instead of validate, type and sanitize: undefined when the value is refused. */
  parse?: (value: unknown, ctx: ParamContext) => unknown
}

export type ArgSet = Record<string, ArgSpec>

/** The update form of a create table: the same arguments, none required, after `first`. */
export function asUpdate(create: ArgSet, first: ArgSet): ArgSet {
  const optional: ArgSet = { ...first }
  for (const [name, spec] of Object.entries(create)) optional[name] = { ...spec, required: false } satisfies ArgSpec
  return optional
}
