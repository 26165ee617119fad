import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import { describeErrors, fieldOf } from '../../src/content/schema/messages.ts'
import { checkSource, checkTranslation } from '../../src/content/schema/records.ts'
import { showValue } from '../../src/content/schema/show.ts'

const EVENT = { id: 1, title: 'Concert', start_date: '2026-06-01 19:00:00', end_date: '2026-06-01 21:00:00' }
const event = (fields: Record<string, unknown>) => checkSource('events', { ...EVENT, ...fields })

describe('messages for the record schemas, in plain words', () => {
  it('names an unknown status and lists the statuses (enum)', () => {
    expect(event({ status: 'publsh' })).toEqual([
      'status: "publsh" is not a status; use publish, draft, pending, private, future or trash',
    ])
  })

  it('names a missing field and what the record needs (required)', () => {
    expect(checkSource('venues', { id: 3 })).toEqual(['venue: missing; a venue needs id and venue'])
  })

  it('says true or false for a flag, and to remove quotes from a quoted one (type boolean)', () => {
    expect(event({ featured: 'maybe' })).toEqual(['featured: "maybe" is not true or false'])
    expect(event({ featured: 'true' })).toEqual(['featured: "true" is text, not true or false; remove the quotes'])
  })

  it('says to quote a number or flag where text is meant (type string)', () => {
    expect(event({ title: 2024 })).toEqual(['title: 2024 is read as a number, not text; put it in quotes'])
    expect(event({ website: true })).toEqual(['website: true is read as true or false, not text; put it in quotes'])
  })

  it('names whole numbers and ids (type integer, minimum)', () => {
    expect(event({ author: 'bob' })).toEqual(['author: "bob" is not a whole number from 0 up'])
    expect(event({ author: '7' })).toEqual(['author: "7" is text, not a whole number from 0 up; remove the quotes'])
    expect(event({ author: -1 })).toEqual(['author: -1 is too small; use a whole number from 0 up'])
    expect(event({ post_parent: 0 })).toEqual(['post_parent: 0 is too small; use an id (a whole number from 1 up)'])
  })

  it('gives the range of a coordinate (minimum, maximum, type number)', () => {
    const venue = (fields: Record<string, unknown>) => checkSource('venues', { id: 3, venue: 'Hall', ...fields })
    expect(venue({ geo_lat: 123 })).toEqual(['geo_lat: 123 is too large; use a number from -90 to 90'])
    expect(venue({ geo_lng: -200 })).toEqual(['geo_lng: -200 is too small; use a number from -180 to 180'])
    expect(venue({ geo_lat: 'north' })).toEqual(['geo_lat: "north" is not a number from -90 to 90'])
  })

  it('shows the date and time format, with an example (pattern)', () => {
    expect(event({ start_date: 'tomorrow' })).toEqual([
      'start_date: "tomorrow" is not a date and time written YYYY-MM-DD HH:MM:SS (such as 2026-06-01 19:00:00)',
    ])
    expect(event({ date: '01/06/2026' })).toEqual([
      'date: "01/06/2026" is not a date and time written YYYY-MM-DD HH:MM:SS (such as 2026-06-01 19:00:00)',
    ])
  })

  it('says an empty title is empty (minLength)', () => {
    expect(event({ title: '' })).toEqual(['title: "" is empty; write at least 1 character'])
  })

  it('says what an empty value should be', () => {
    expect(event({ all_day: null })).toEqual(['all_day: empty; write true or false'])
  })

  it('names the item of a list that is wrong, and what either form allows (anyOf, items)', () => {
    expect(event({ venue: [4, 'x'] })).toEqual(['venue (item 2): "x" is not an id (a whole number from 1 up)'])
    expect(event({ venue: [0] })).toEqual(['venue (item 1): 0 is too small; use an id (a whole number from 1 up)'])
    expect(event({ venue: 'the hall' })).toEqual([
      'venue: "the hall" is not an id (a whole number from 1 up) or a list of ids',
    ])
    expect(event({ cost: { free: true } })).toEqual(['cost: {"free":true} is not text or a list of text'])
  })

  it('reports every problem of one file at once (allErrors)', () => {
    const problems = checkSource('events', { id: 'one', status: 'live', start_date: 'soon', all_day: 'no', geo: 1 })
    expect(problems).toEqual([
      'title: missing; an event needs id, title, start_date and end_date',
      'end_date: missing; an event needs id, title, start_date and end_date',
      'id: "one" is not an id (a whole number from 1 up to 999999999)',
      'status: "live" is not a status; use publish, draft, pending, private, future or trash',
      'start_date: "soon" is not a date and time written YYYY-MM-DD HH:MM:SS (such as 2026-06-01 19:00:00)',
      'all_day: "no" is not true or false',
    ])
  })

  it('checks a translation as a translation of its kind', () => {
    expect(checkTranslation('venues', { venue: '' })).toEqual(['venue: "" is empty; write at least 1 character'])
    expect(checkTranslation('events', { title: 5 })).toEqual([
      'title: 5 is read as a number, not text; put it in quotes',
    ])
  })
})

describe('messages for the other keywords a schema may use', () => {
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true })
  addFormats.default(ajv)
  const validate = ajv.compile({
    type: 'object',
    required: ['kind'],
    additionalProperties: false,
    properties: {
      kind: { const: 'event' },
      email: { type: 'string', format: 'email' },
      code: { type: 'string', pattern: '^[A-Z]{3}$' },
      name: { type: 'string', minLength: 3, maxLength: 5 },
      tags: { type: 'array', minItems: 1, maxItems: 2, uniqueItems: true },
      score: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 10 },
    },
  })
  const messages = (data: unknown) => (validate(data) ? [] : describeErrors(validate.errors, 'a thing'))

  it('const, format, pattern', () => {
    expect(messages({ kind: 'venue' })).toEqual(['kind: "venue" is not allowed; use "event"'])
    expect(messages({ kind: 'event', email: 'nobody' })).toEqual(['email: "nobody" is not an email address'])
    expect(messages({ kind: 'event', code: 'ab' })).toEqual(['code: "ab" does not match the pattern "^[A-Z]{3}$"'])
  })

  it('minLength, maxLength', () => {
    expect(messages({ kind: 'event', name: 'ab' })).toEqual(['name: "ab" is too short; write at least 3 characters'])
    expect(messages({ kind: 'event', name: 'abcdefg' })).toEqual([
      'name: "abcdefg" is too long (7 characters); write at most 5',
    ])
  })

  it('minItems, maxItems, uniqueItems', () => {
    expect(messages({ kind: 'event', tags: [] })).toEqual(['tags: the list has 0 items; give at least 1'])
    expect(messages({ kind: 'event', tags: [1, 2, 3] })).toEqual(['tags: the list has 3 items; give at most 2'])
    expect(messages({ kind: 'event', tags: [1, 1] })).toEqual(['tags: items 1 and 2 are the same; list each once'])
  })

  it('exclusiveMinimum, exclusiveMaximum', () => {
    expect(messages({ kind: 'event', score: 0 })).toEqual(['score: 0 is too small; use a number from 0 to 10'])
    expect(messages({ kind: 'event', score: 10 })).toEqual(['score: 10 is too large; use a number from 0 to 10'])
  })

  it('required, additionalProperties, type of the whole front matter', () => {
    expect(messages({ kynd: 'event' })).toEqual(['kind: missing; a thing needs kind', 'kynd: not a field of a thing'])
    expect(messages([1])).toEqual(['front matter: [1] is not a mapping of keys to values'])
  })
})

describe('values shown in messages', () => {
  it('are JSON, shortened with … when long', () => {
    expect(showValue('publsh')).toBe('"publsh"')
    expect(showValue(12)).toBe('12')
    expect(showValue('x'.repeat(1000))).toBe(`"${'x'.repeat(40)}…"`)
    expect(showValue(Array.from({ length: 100 }, (_, i) => i)).length).toBeLessThanOrEqual(61)
  })

  it('escape every character that could break or reorder a line', () => {
    expect(showValue('a\nb\rc\u2028d\u2029e\u0085f\u202eg\u0007')).toBe(
      '"a\\nb\\rc\\u2028d\\u2029e\\u0085f\\u202eg\\u0007"',
    )
    expect(fieldOf('/we\u2028ird~1key')).toBe('"we\\u2028ird/key"')
  })
})
