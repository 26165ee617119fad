import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { call } from '../helpers.ts'
import { allPages, file, seriesApp } from '../series/tree.ts'
import { countsPastFirst, expected, idOf, type SeriesSpec, seriesFiles, seriesSpec } from './series-oracle.ts'

// The property: for random rules, exclusions and overrides written as content files, the
// occurrences Almanac serves through the API (every page of a post_parent list) equal an independent
// expansion (./series-oracle.ts); their ids stay when an edit keeps them, never meet a record's id,
// and are the same after a restart. (Every file names its `date`: without one a post's date is the
// file's modification time, which a memory tree does not keep from one start to the next.) FC_SEED=<n> replays a failure.
const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)
const RUNS = Number(process.env.FC_RUNS ?? 20)
const WINDOW = 'start_date=2000-01-01&end_date=2031-12-31'

/** A tree with two series (one at the highest id a series may have) and records around them. */
function treeOf(a: SeriesSpec, b: SeriesSpec, titleA = 'Series', bodyA = 'About it.') {
  const files: Record<string, string> = {
    'events/single.en.md': file({
      id: 5,
      title: 'Single',
      date: '2026-01-01 10:00:00',
      start_date: '2026-12-01 10:00:00',
      end_date: '2026-12-01 11:00:00',
    }),
    'events/last.en.md': file({
      id: 999_999_999,
      title: 'Last id',
      date: '2026-01-01 10:00:00',
      start_date: '2027-01-01 10:00:00',
      end_date: '2027-01-01 11:00:00',
    }),
  }
  for (const [id, spec, title, body] of [
    [3, a, titleA, bodyA],
    [9_007_198, b, 'Series', 'About it.'],
  ] as const) {
    const { source, ms } = seriesFiles(id, spec, title, body)
    files[`events/s${id}.en.md`] = file(source, body)
    files[`events/s${id}.ms.md`] = file(ms, 'Tentangnya.')
  }
  return files
}

type Served = { id: number; start_date: string; end_date: string; title: string; series: { start_date: string } }

async function served(app: Parameters<typeof allPages>[0], id: number, perPage: number, lang = 'en') {
  const events: Served[] = await allPages(app, `post_parent=${id}&${WINDOW}&ml_language=${lang}`, perPage)
  return events.sort((x, y) => x.id - y.id)
}

function agree(events: Served[], id: number, spec: SeriesSpec, title = 'Series', lang = 'en') {
  const want = expected(spec, title)
  expect(events.map((event) => event.id)).toEqual(want.map((occurrence) => idOf(id, occurrence.start)))
  expect(events.map((e) => [e.series.start_date, e.start_date, e.end_date, e.title])).toEqual(
    want.map((o) => [o.start, o.startDate, o.endDate, lang === 'ms' ? o.msTitle : o.title]),
  )
}

const settings = () => ({ numRuns: RUNS, seed: SEED })

describe('served occurrences equal an independent expansion', () => {
  it('through every page of post_parent, in English and in Malay, for random rules, exclusions and overrides', async () => {
    await fc.assert(
      fc.asyncProperty(seriesSpec, seriesSpec, fc.integer({ min: 1, max: 50 }), async (a, b, perPage) => {
        fc.pre(!countsPastFirst(a) && !countsPastFirst(b))
        const app = await seriesApp(treeOf(a, b))
        const errors = app.problems.filter((problem) => problem.severity === 'error')
        expect(errors, JSON.stringify(a)).toEqual([])
        // Small pages over long series would be thousands of requests: at most ~30 pages each.
        agree(await served(app, 3, Math.max(perPage, Math.ceil(expected(a).length / 30))), 3, a)
        agree(await served(app, 9_007_198, 50), 9_007_198, b)
        agree(await served(app, 3, 50, 'ms'), 3, a, 'Series', 'ms')
        const everything = await allPages(app, WINDOW, 50)
        const ids = everything.map((event: { id: number }) => event.id)
        expect(new Set(ids).size).toBe(ids.length)
        expect(ids.filter((id: number) => id < 1e9).sort()).toEqual([5, 999_999_999])
      }),
      settings(),
    )
  })
})

describe('a COUNT when the first start is not on the rule', () => {
  // ical.js counts COUNT from the rule's own dates, so a first start off the rule made COUNT+1 occurrences.
  // RFC 5545, section 3.3.10: "The DTSTART property value always counts as the first occurrence".
  it('counts the first start as the first of COUNT, as RFC 5545 has DTSTART', async () => {
    const spec: SeriesSpec = {
      zone: 'UTC',
      first: '2026-05-31 09:00:00',
      minutes: 60,
      rule: 'FREQ=WEEKLY;BYDAY=MO;COUNT=2',
      rdate: [],
      exdate: [],
      overrides: {},
      msOverrides: {},
    }
    const app = await seriesApp(treeOf(spec, spec))
    const events = await served(app, 3, 50)
    expect(events.map((event) => event.start_date)).toEqual(['2026-05-31 09:00:00', '2026-06-01 09:00:00'])
  })
})

describe('occurrence ids', () => {
  const edits = {
    title: (spec: SeriesSpec) => ({ spec, title: 'Renamed', body: 'About it.' }),
    description: (spec: SeriesSpec) => ({ spec, title: 'Series', body: 'Another description.' }),
    count: (spec: SeriesSpec) => ({
      spec: { ...spec, rule: spec.rule.replace(/COUNT=(\d+)/, (_, n) => `COUNT=${Number(n) + 5}`) },
      title: 'Series',
      body: 'About it.',
    }),
    exdate: (spec: SeriesSpec, index: number) => {
      const starts = expected(spec).map((occurrence) => occurrence.start)
      const exdate = starts.length > 1 ? [...spec.exdate, starts[index % starts.length]!] : spec.exdate
      return { spec: { ...spec, exdate }, title: 'Series', body: 'About it.' }
    },
  }

  it('stay when an edit keeps the occurrence (title, description, a longer COUNT, an exclusion elsewhere)', async () => {
    await fc.assert(
      fc.asyncProperty(
        seriesSpec,
        seriesSpec,
        fc.constantFrom(...(Object.keys(edits) as (keyof typeof edits)[])),
        fc.nat(),
        async (a, b, edit, index) => {
          fc.pre(!countsPastFirst(a) && !countsPastFirst(b))
          const app = await seriesApp(treeOf(a, b))
          const before = await served(app, 3, 50)
          const next = edits[edit](a, index)
          const text = treeOf(next.spec, b, next.title, next.body)['events/s3.en.md']!
          await app.driver.write('events/s3.en.md', text)
          await app.store.reload(['events/s3.en.md'])
          const after = await served(app, 3, 50)
          agree(after, 3, next.spec, next.title)
          const afterByStart = new Map(after.map((event) => [event.series.start_date, event.id]))
          for (const event of before) {
            const kept = afterByStart.get(event.series.start_date)
            if (kept !== undefined) expect(kept, `${edit} ${event.series.start_date}`).toBe(event.id)
          }
          const lost = before.filter((event) => !afterByStart.has(event.series.start_date))
          expect(lost.length, edit).toBeLessThanOrEqual(edit === 'exdate' ? 1 : 0)
        },
      ),
      settings(),
    )
  })

  it('are the same after a restart: a fresh store over the same files serves the same answers', async () => {
    await fc.assert(
      fc.asyncProperty(seriesSpec, seriesSpec, async (a, b) => {
        const files = treeOf(a, b)
        const [first, second] = [await seriesApp(files), await seriesApp(files)]
        const list = `${WINDOW}&per_page=50`
        expect((await call(second, `events?${list}`)).text).toBe((await call(first, `events?${list}`)).text)
        const one = (await served(first, 9_007_198, 50))[0]
        if (one)
          expect((await call(second, `events/${one.id}`)).text).toBe((await call(first, `events/${one.id}`)).text)
      }),
      settings(),
    )
  })
})
