import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateContent } from '../../scripts/bench/common/content.ts'
import { type ContentRecord, isSeries } from '../../src/content/model/record-types.ts'
import type { Problem } from '../../src/content/checks/problems.ts'
import { createStore, type Store } from '../../src/content/store.ts'
import { SAMPLE_NOW } from '../helpers.ts'

// The bench's series (BENCH_SERIES): weekly open-ended source events the store serves as occurrences, one in ten
// with an excluded week and a moved, retitled one; the events around them are the tree without series.
const EVENTS = 30
const SERIES = 20
const DAY = 86_400_000

let dir: string
let store: Store
const problems: Problem[] = []

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'almanac-bench-series-'))
  await generateContent(join(dir, 'plain'), EVENTS, SAMPLE_NOW)
  await generateContent(join(dir, 'series'), EVENTS, SAMPLE_NOW, SERIES)
  store = await createStore(join(dir, 'series'), {
    defaultLanguage: 'en',
    fallback: true,
    now: () => SAMPLE_NOW,
    onProblem: (problem) => problems.push(problem),
  })
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const series = () => store.list('events').filter(isSeries)
const occurrencesOf = (parent: ContentRecord) => store.events().filter((e) => e.series?.parent === parent)
const startOf = (record: ContentRecord) => String(record.source.data.start_date)

describe("the bench's generated series", () => {
  it('adds series without changing a byte of the events, venues, organizers or terms', async () => {
    const plain = await readdir(join(dir, 'plain'), { recursive: true })
    for (const file of plain.filter((name) => name.endsWith('.md')))
      expect(await readFile(join(dir, 'series', file), 'utf8')).toBe(await readFile(join(dir, 'plain', file), 'utf8'))
    expect(series()).toHaveLength(SERIES)
  })

  it('serves each series as weekly occurrences at its wall clock, every one open-ended and otherwise clean', () => {
    for (const parent of series()) {
      const starts = occurrencesOf(parent).map((o) => o.series!.start)
      expect(starts.length).toBeGreaterThan(100) // a past year (at most) and two years ahead
      expect(starts[0]).toBe(startOf(parent))
      for (const start of starts) expect(start.slice(11)).toBe(startOf(parent).slice(11))
      const rule = String((parent.source.data.recurrence as { rrule: string }).rrule)
      expect(rule).toMatch(/^FREQ=WEEKLY;BYDAY=(MO|TU|WE|TH|FR|SA|SU)$/)
      expect(Date.parse(startOf(parent).slice(0, 10))).toBeLessThan(SAMPLE_NOW - 6 * DAY)
      expect(Date.parse(startOf(parent).slice(0, 10))).toBeGreaterThan(SAMPLE_NOW - 367 * DAY)
    }
    const zones = new Set(series().map((s) => s.source.data.timezone))
    expect(zones).toEqual(new Set(['Asia/Singapore', 'Europe/London', 'America/New_York', 'Asia/Kuala_Lumpur']))
    const messages = problems.map((p) => p.message)
    expect(messages).toHaveLength(SERIES)
    for (const message of messages) expect(message).toMatch(/^recurrence\.rrule: open-ended/)
  })

  it('excludes an upcoming week and moves the next in one series of ten, retitled in all four languages', () => {
    const changed = series().filter((s) => s.source.data.overrides !== undefined)
    expect(changed).toHaveLength(SERIES / 10)
    for (const parent of changed) {
      const occurrences = occurrencesOf(parent)
      const gaps = occurrences.slice(1).map((o, i) => daysBetween(occurrences[i]!.series!.start, o.series!.start))
      expect(gaps.filter((gap) => gap !== 7)).toEqual([14]) // the excluded week
      const moved = occurrences.filter((o) => startOf(o) !== o.series!.start)
      expect(moved).toHaveLength(1)
      expect(daysBetween(moved[0]!.series!.start, startOf(moved[0]!))).toBe(1)
      expect(Date.parse(moved[0]!.series!.start.slice(0, 10))).toBeGreaterThan(SAMPLE_NOW)
      const titles = [...moved[0]!.files.values()].map((file) => String(file.data.title))
      expect(titles).toHaveLength(4)
      for (const [lang, file] of parent.files)
        expect(moved[0]!.files.get(lang)!.data.title).toMatch(new RegExp(`^${String(file.data.title)} \\(.+\\)$`))
    }
  })
})

function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(b.slice(0, 10)) - Date.parse(a.slice(0, 10))) / DAY)
}
