import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { parseParams } from '../../src/args/parse.ts'
import { EVENT_CREATE_ARGS } from '../../src/args/write-events.ts'
import { sourceFiles } from '../architecture/imports.ts'
import { fixtureApp } from '../helpers.ts'

// An event's `venue` and `organizer` are parsed with the arguments: an inline entry goes through its
// create table there, once, and the write plans from the result instead of parsing the entry again.

const EVENT = { title: 'Parsed', start_date: '2026-12-20 18:00:00', end_date: '2026-12-20 23:00:00' }

let ctx: ReturnType<Awaited<ReturnType<typeof fixtureApp>>['context']>
beforeAll(async () => {
  ctx = (await fixtureApp('reference')).context()
})

describe("an event's linked arguments, parsed", () => {
  it('leaves an inline venue as its create table parsed it, next to the value sent', () => {
    const venue = { venue: 'Parsed Hall', city: 'KL', show_map: 'false' }
    const { values } = parseParams(EVENT_CREATE_ARGS, { ...EVENT, venue }, ctx)
    expect(values.venue).toEqual({
      sent: venue,
      items: [{ entry: { values: venue, given: new Set(['venue', 'city', 'show_map']) } }],
    })
  })

  it('leaves ids as ids, an entry with a bad field as such, and empty as no link', () => {
    const organizer = [5, '5', { id: 5 }, { organizer: 'Bad Site', website: 'not a url' }]
    const parsed = parseParams(EVENT_CREATE_ARGS, { ...EVENT, organizer, venue: '' }, ctx).values
    expect(parsed.organizer).toEqual({ sent: organizer, items: [{ id: 5 }, { id: 5 }, { id: 5 }, { badField: true }] })
    expect(parsed.venue).toEqual({ sent: '', items: null })
  })

  it('refuses an unnamed entry with the other bad arguments, naming venue', () => {
    expect(() => parseParams(EVENT_CREATE_ARGS, { ...EVENT, title: '', venue: { city: 'KL' } }, ctx)).toThrow(
      'Invalid parameter(s): title, venue',
    )
  })

  it('runs the argument pipeline nowhere in src/write/: writes plan from parsed arguments', () => {
    const callers = sourceFiles(resolve(import.meta.dirname, '../../src/write')).filter((file) =>
      /\bparseParams\(/.test(readFileSync(file, 'utf8')),
    )
    expect(callers).toEqual([])
  })
})
