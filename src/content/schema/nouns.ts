// What a schema allows, in words: "text", "true or false", "an id (a whole number from 1 up)".

/** The part of a JSON Schema the record schemas use. */
export interface SchemaShape {
  type?: string | readonly string[]
  enum?: readonly unknown[]
  const?: unknown
  pattern?: string
  format?: string
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  exclusiveMaximum?: number
  minLength?: number
  maxLength?: number
  minItems?: number
  maxItems?: number
  items?: SchemaShape
  anyOf?: readonly SchemaShape[]
  oneOf?: readonly SchemaShape[]
  required?: readonly string[]
}

/** A thing and its plural: `an id` / `ids`. */
export interface Noun {
  one: string
  many: string
}

/** The pattern of a wall-clock date and time, as the record schemas write it. */
export const WALL_CLOCK_PATTERN = '^\\d{4}-\\d{2}-\\d{2}[ T]\\d{2}:\\d{2}(:\\d{2})?$'
export const WALL_CLOCK_WORDS = 'a date and time written YYYY-MM-DD HH:MM:SS (such as 2026-06-01 19:00:00)'

const FORMATS: Record<string, Noun> = {
  'date-time': { one: 'a date and time such as 2026-06-01T19:00:00Z', many: 'dates and times' },
  date: { one: 'a date written YYYY-MM-DD', many: 'dates' },
  time: { one: 'a time written HH:MM:SS', many: 'times' },
  email: { one: 'an email address', many: 'email addresses' },
  uri: { one: 'a full URL', many: 'URLs' },
}

/** What `schema` allows, in words. */
export function nounOf(schema: SchemaShape): Noun {
  const alternatives = schema.anyOf ?? schema.oneOf
  if (alternatives) return joinNouns(alternatives.map(nounOf))
  if (schema.enum)
    return {
      one: `one of ${schema.enum.map(String).join(', ')}`,
      many: `values from ${schema.enum.map(String).join(', ')}`,
    }
  if (schema.const === '') return { one: 'empty ("")', many: 'empty values' }
  if (schema.const !== undefined) return { one: JSON.stringify(schema.const), many: JSON.stringify(schema.const) }
  if (schema.pattern === WALL_CLOCK_PATTERN)
    return { one: WALL_CLOCK_WORDS, many: 'dates and times written YYYY-MM-DD HH:MM:SS' }
  if (schema.format && FORMATS[schema.format]) return FORMATS[schema.format]!
  const types = typeof schema.type === 'string' ? [schema.type] : [...(schema.type ?? [])]
  // Text fields take numbers too (YAML reads `zip: 01234` as one): to an editor they are text.
  const shown = types.includes('string') ? types.filter((t) => t !== 'number') : types
  return joinNouns(shown.map((type) => typeNoun(type, schema)))
}

function typeNoun(type: string, schema: SchemaShape): Noun {
  if (type === 'integer' && schema.minimum === 1 && schema.maximum === undefined)
    return { one: 'an id (a whole number from 1 up)', many: 'ids' }
  if (type === 'integer' && schema.minimum === 1 && schema.maximum === 999_999_999)
    return { one: 'an id (a whole number from 1 up to 999999999)', many: 'ids' }
  if (type === 'integer' || type === 'number')
    return numberNoun(type === 'integer' ? 'a whole number' : 'a number', schema)
  if (type === 'array')
    return { one: `a list of ${schema.items ? nounOf(schema.items).many : 'values'}`, many: 'lists' }
  const simple: Record<string, Noun> = {
    string: { one: 'text', many: 'text' },
    boolean: { one: 'true or false', many: 'true or false values' },
    object: { one: 'a mapping of keys to values', many: 'mappings' },
    null: { one: 'empty', many: 'empty values' },
  }
  return simple[type] ?? { one: type, many: type }
}

function numberNoun(one: string, schema: SchemaShape): Noun {
  const many = one === 'a number' ? 'numbers' : 'whole numbers'
  const low = schema.minimum ?? schema.exclusiveMinimum
  const high = schema.maximum ?? schema.exclusiveMaximum
  if (low !== undefined && high !== undefined) return { one: `${one} from ${low} to ${high}`, many }
  if (low !== undefined) return { one: `${one} from ${low} up`, many }
  if (high !== undefined) return { one: `${one} up to ${high}`, many }
  return { one, many }
}

function joinNouns(nouns: Noun[]): Noun {
  const unique = (list: string[]) => [...new Set(list)]
  return { one: unique(nouns.map((n) => n.one)).join(' or '), many: unique(nouns.map((n) => n.many)).join(' or ') }
}
