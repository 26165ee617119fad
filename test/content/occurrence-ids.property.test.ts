import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { OCCURRENCE_STARTS, SERIES_LIMITS, splitOccurrenceId } from '../../src/content/model/recurrence.ts'
import type { ContentRecord } from '../../src/content/store.ts'
import { instantToWall, wallToInstant } from '../../src/time/zone.ts'
import { call } from '../helpers.ts'
import { file, seriesApp } from '../series/tree.ts'

// Random series over the whole accepted range of ids and dates, each with series built to collide with it (the
// id below with a start 10^9 minutes later, the id above with one 10^9 minutes earlier), in one store. Every
// occurrence served has an id of its own, above every post id, that splits back into its series and original
// start, and answers GET as that occurrence; a series that would need more minutes is an error and serves nothing.
// FC_SEED replays a run; the seed is printed on failure.
const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)

const MINUTE = 60_000
const BASE = SERIES_LIMITS.base
const minutesOf = (wall: string) => wallToInstant(wall, 'UTC') / MINUTE
const wallAt = (minutes: number) => instantToWall(minutes * MINUTE, 'UTC')
const FIRST = minutesOf('0000-01-02 00:00:00')
const LAST = minutesOf('9999-12-29 00:00:00')
const NOW = minutesOf('2026-11-22 00:00:00')
const around = (at: number, days: number) => fc.integer({ min: at - days * 1440, max: at + days * 1440 })

/** Starts anywhere in the years 0000–9999, and often where ids meet: 1970, 3871-04-29 10:40, now. */
const start = fc.oneof(fc.integer({ min: FIRST, max: LAST }), around(0, 3), around(BASE, 3), around(NOW, 400))
const rule = fc.constantFrom('FREQ=DAILY;COUNT=2', 'FREQ=MINUTELY;COUNT=3', 'FREQ=WEEKLY;COUNT=2', 'FREQ=YEARLY')
const series = fc.record({
  id: fc.integer({ min: 2, max: SERIES_LIMITS.seriesId - 1 }),
  start,
  rule,
  rdate: fc.option(start, { nil: undefined }),
  zone: fc.constantFrom('UTC', 'Pacific/Kiritimati', 'Etc/GMT+12', 'Asia/Singapore'),
  colliders: fc.boolean(),
})
type Series = { id: number; start: number; rule: string; rdate?: number; zone: string }

/** The series as given, and for each that asks, the two built to take its first occurrence's id. */
function withColliders(given: (Series & { colliders: boolean })[]): Series[] {
  const out = new Map<number, Series>()
  for (const { colliders, ...one } of given) {
    if (out.has(one.id)) continue
    out.set(one.id, one)
    if (!colliders) continue
    if (!out.has(one.id - 1)) out.set(one.id - 1, { ...one, id: one.id - 1, start: one.start + BASE })
    if (!out.has(one.id + 1)) out.set(one.id + 1, { ...one, id: one.id + 1, start: one.start - BASE })
  }
  return [...out.values()].filter((one) => one.start >= FIRST && one.start <= LAST)
}

function seriesFile(one: Series): string {
  const recurrence: Record<string, unknown> = { rrule: one.rule }
  if (one.rdate !== undefined) recurrence.rdate = [wallAt(one.rdate)]
  const [from, to] = [wallAt(one.start), wallAt(one.start + 60)]
  const data = { id: one.id, title: `S${one.id}`, slug: `s-${one.id}`, start_date: from, end_date: to }
  return file({ ...data, timezone: one.zone, recurrence })
}

describe('occurrence ids over the whole range of series ids and dates', () => {
  it('are unique, above every post id, split back into their series, and answer as themselves', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(series, { minLength: 1, maxLength: 3 }), async (given) => {
        const all = withColliders(given)
        const files = Object.fromEntries(all.map((one) => [`events/s-${one.id}.en.md`, seriesFile(one)]))
        const app = await seriesApp(files)
        const occurrences = app.store.events().filter((record: ContentRecord) => record.series)
        const ids = app.store.events().map((record: ContentRecord) => record.id)
        expect(new Set(ids).size).toBe(ids.length)
        for (const occurrence of occurrences) {
          expect(occurrence.id).toBeGreaterThanOrEqual(BASE)
          expect(Number.isSafeInteger(occurrence.id)).toBe(true)
          const { parent, start: original } = occurrence.series!
          expect(splitOccurrenceId(occurrence.id)).toEqual({ series: parent.id, start: original })
        }
        for (const occurrence of [occurrences[0], occurrences.at(-1)].filter((one) => one !== undefined)) {
          const answer = await call(app, `events/${occurrence.id}`)
          expect(answer.status, answer.text).toBe(200)
          expect(answer.body.series.id).toBe(occurrence.series!.parent.id)
        }
        for (const one of all) {
          const past = [one.start, one.rdate ?? 0].some((minutes) => wallAt(minutes) >= OCCURRENCE_STARTS.end)
          if (!past) continue
          expect(app.store.get('events', one.id)).toBeUndefined()
          const told = app.problems.filter((problem) => problem.path === `events/s-${one.id}.en.md`)
          expect(told.map((problem) => problem.message).join('\n')).toMatch(/is not before|a series starts before/)
        }
      }),
      { numRuns: 80, seed },
    )
  })
})
