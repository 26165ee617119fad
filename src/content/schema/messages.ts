import type { ErrorObject } from 'ajv'
import { nounOf, WALL_CLOCK_PATTERN, WALL_CLOCK_WORDS, type SchemaShape } from './nouns.ts'
import { andList, orList, showKey, showValue } from './show.ts'
import { WEB_ADDRESS_FORMAT } from './web-address.ts'

// ajv's errors (compiled with allErrors and verbose) in plain words, one line each, each naming the
// field, the value and what is allowed: `status: "publsh" is not a status; use publish, draft, …`.

/** Each problem of `errors` in words; `record` names what the schema describes ("an event"). */
export function describeErrors(errors: readonly ErrorObject[] | null | undefined, record: string): string[] {
  // A hostile file can give hundreds of thousands (`tags: [0, 0, …]`, every item wrong): the first are described,
  // which keeps this linear (the alternatives are looked up for each error) and the messages within what a caller
  // can spread. The problem log tells how many more there are.
  const all = errors ?? []
  const list = all.length > MAX_DESCRIBED ? all.slice(0, MAX_DESCRIBED) : all
  const alternatives = list.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf')
  const messages: string[] = []
  for (const error of list) {
    // A branch's own errors are the alternative's to tell: it picks the branch the value meant.
    if (alternatives.some((a) => a !== error && error.schemaPath.startsWith(`${a.schemaPath}/`))) continue
    if (alternatives.includes(error))
      for (const message of describeAlternative(error, list, record)) messages.push(message)
    else messages.push(describeError(error, record))
  }
  const described = [...new Set(messages)]
  if (all.length > list.length)
    described.push(`${all.length - list.length} more problems of ${record} are not described`)
  return described
}

/** How many of a file's schema errors are described. */
const MAX_DESCRIBED = 200

/** One error that is not an alternative. */
export function describeError(error: ErrorObject, record: string): string {
  const field = fieldOf(error.instancePath)
  const shown = showValue(error.data)
  const schema = (error.parentSchema ?? {}) as SchemaShape
  const params = error.params as Record<string, unknown>
  switch (error.keyword) {
    case 'required':
      return `${fieldOf(`${error.instancePath}/${String(params.missingProperty)}`)}: missing; ${record} needs ${andList((error.schema as string[]) ?? [])}`
    case 'additionalProperties':
      return `${fieldOf(`${error.instancePath}/${String(params.additionalProperty)}`)}: not a field of ${record}`
    case 'type':
      return typeMessage(field, error.data, schema)
    case 'enum':
      return `${field}: ${shown} is not ${article(lastKey(error.instancePath))}; use ${orList(((error.schema as unknown[]) ?? []).map(String))}`
    case 'const':
      return `${field}: ${shown} is not allowed; use ${showValue(error.schema)}`
    case 'pattern':
      return error.schema === WALL_CLOCK_PATTERN
        ? `${field}: ${shown} is not ${WALL_CLOCK_WORDS}`
        : `${field}: ${shown} does not match the pattern ${showValue(error.schema)}`
    case 'format':
      return schema.format === WEB_ADDRESS_FORMAT
        ? `${field}: ${shown} is not a web address; use one that starts with http:// or https://`
        : `${field}: ${shown} is not ${nounOf(schema).one}`
    case 'minimum':
    case 'exclusiveMinimum':
      return `${field}: ${shown} is too small; use ${nounOf(schema).one}`
    case 'maximum':
    case 'exclusiveMaximum':
      return `${field}: ${shown} is too large; use ${nounOf(schema).one}`
    default:
      return sizeMessage(error, field, shown) ?? `${field}: ${shown} ${error.message ?? 'is not allowed'}`
  }
}

/** Lengths and counts: minLength, maxLength, minItems, maxItems, uniqueItems. */
function sizeMessage(error: ErrorObject, field: string, shown: string): string | undefined {
  const limit = Number((error.params as { limit?: number }).limit)
  const length =
    typeof error.data === 'string' ? Array.from(error.data).length : Array.isArray(error.data) ? error.data.length : 0
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
  switch (error.keyword) {
    case 'minLength':
      return limit === 1
        ? `${field}: ${shown} is empty; write at least 1 character`
        : `${field}: ${shown} is too short; write at least ${plural(limit, 'character')}`
    case 'maxLength':
      return `${field}: ${shown} is too long (${plural(length, 'character')}); write at most ${limit}`
    case 'minItems':
      return `${field}: the list has ${plural(length, 'item')}; give at least ${limit}`
    case 'maxItems':
      return `${field}: the list has ${plural(length, 'item')}; give at most ${limit}`
    case 'uniqueItems':
      return `${field}: items ${Number((error.params as { j: number }).j) + 1} and ${Number((error.params as { i: number }).i) + 1} are the same; list each once`
    default:
      return undefined
  }
}

/** A value of the wrong type, with the likely fix: quotes to add or to remove. */
function typeMessage(field: string, value: unknown, schema: SchemaShape): string {
  const wanted = nounOf(schema).one
  if (value === null) return `${field}: empty; write ${wanted}`
  const types = typeof schema.type === 'string' ? [schema.type] : [...(schema.type ?? [])]
  const plainText =
    types.includes('string') && !schema.pattern && (!schema.format || schema.format === WEB_ADDRESS_FORMAT)
  if (plainText && (typeof value === 'number' || typeof value === 'boolean')) {
    return `${field}: ${showValue(value)} is read as ${typeof value === 'number' ? 'a number' : 'true or false'}, not text; put it in quotes`
  }
  if (typeof value === 'string' && types.some((type) => looksLike(type, value)))
    return `${field}: ${showValue(value)} is text, not ${wanted}; remove the quotes`
  return `${field}: ${showValue(value)} is not ${wanted}`
}

/** Whether text would be a value of `type` if it were written without quotes. */
function looksLike(type: string, text: string): boolean {
  if (type === 'boolean') return text === 'true' || text === 'false'
  if (type === 'integer') return /^-?\d{1,15}$/.test(text)
  return type === 'number' && /^-?\d{1,15}(\.\d{1,15})?$/.test(text)
}

/** An alternative (anyOf): the errors of the branch the value's type picks, else what the branches allow. */
function describeAlternative(error: ErrorObject, all: readonly ErrorObject[], record: string): string[] {
  const branches = (error.schema ?? []) as SchemaShape[]
  const picked = branches.findIndex((branch) => typeMatches(branch, error.data))
  const own = picked < 0 ? [] : all.filter((e) => e.schemaPath.startsWith(`${error.schemaPath}/${picked}/`))
  if (own.length > 0) return describeErrors(own, record)
  return [
    `${fieldOf(error.instancePath)}: ${showValue(error.data)} is not ${nounOf(error.parentSchema as SchemaShape).one}`,
  ]
}

function typeMatches(schema: SchemaShape, value: unknown): boolean {
  const types = typeof schema.type === 'string' ? [schema.type] : [...(schema.type ?? [])]
  const actual = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value
  if (actual === 'number') return types.includes('number') || (types.includes('integer') && Number.isInteger(value))
  return types.includes(actual)
}

/** `/venue/1` → `venue (item 2)`; a key that is not a plain name is shown quoted. */
export function fieldOf(instancePath: string): string {
  const segments = instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
  if (segments.length === 0) return 'front matter'
  return segments
    .map((s, i) => (i > 0 && /^\d+$/.test(s) ? ` (item ${Number(s) + 1})` : `${i > 0 ? '.' : ''}${showKey(s)}`))
    .join('')
}

/** `a status`, `an event_status`. */
function article(noun: string): string {
  return `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`
}

function lastKey(instancePath: string): string {
  const keys = instancePath
    .split('/')
    .slice(1)
    .filter((s) => !/^\d+$/.test(s))
  return showKey(keys[keys.length - 1] ?? 'value')
}
