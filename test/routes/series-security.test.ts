import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { occurrenceId } from '../../src/content/model/recurrence.ts'
import { as, call, writableApp } from '../helpers.ts'
import { file } from '../series/tree.ts'

// Series that are not public (a draft, a pending one, a private one) and a password-protected one:
// their occurrences are theirs, so an anonymous caller never sees the first three on any read route,
// and sees the protected one's occurrences blanked as any protected event. Marker words sit in every
// field that must stay hidden (title, body, override title and description, translation and its
// overrides); the protected series' title is readable by design (the reference shows it).
const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)
const RUNS = Number(process.env.FC_RUNS ?? 150)

const RULES = [
  'FREQ=WEEKLY;BYDAY=MO,TH',
  'FREQ=DAILY;INTERVAL=3;COUNT=40',
  'FREQ=MONTHLY;BYMONTHDAY=2,20',
  'FREQ=WEEKLY',
]
const HIDDEN = { 11: 'draft', 12: 'pending', 13: 'private', 14: 'protected' } as const
type Secret = keyof typeof HIDDEN
const SECRETS = Object.keys(HIDDEN).map(Number) as Secret[]

/** Each series' markers: the words of fields an anonymous caller must never read. */
const markers = new Map<string, number>()
const mark = (series: number, field: string) => {
  const word = `zq${series}${field}mk`
  markers.set(word, series)
  return word
}

function seriesFiles(id: Secret, rule: string): Record<string, string> {
  const status = HIDDEN[id]
  const first = `2026-12-0${id - 10} 10:00:00`
  const key = first.slice(0, 10)
  const source = {
    id,
    title: status === 'protected' ? `Locked series ${id}` : `Series ${mark(id, 'title')}`,
    slug: `secret-${id}`,
    status: status === 'protected' ? 'publish' : status,
    ...(status === 'protected' ? { password: 'pw-right' } : {}),
    author: 1,
    date: '2026-10-01 10:00:00',
    start_date: first,
    end_date: first.replace('10:00', '11:00'),
    excerpt: mark(id, 'excerpt'),
    cost: mark(id, 'cost'),
    recurrence: { rrule: rule, exdate: ['2027-01-10'] },
    overrides: {
      [key]: {
        ...(status === 'protected' ? {} : { title: `Moved ${mark(id, 'otitle')}` }),
        description: `Moved ${mark(id, 'odesc')}`,
        excerpt: mark(id, 'oexcerpt'),
      },
    },
  }
  const translation = {
    ...(status === 'protected' ? {} : { title: `Siri ${mark(id, 'mstitle')}` }),
    slug: `rahsia-${id}`,
    excerpt: mark(id, 'msexcerpt'),
    overrides: { [key]: { description: `Dipindah ${mark(id, 'msodesc')}`, cost: mark(id, 'msocost') } },
  }
  return {
    [`events/secret-${id}.en.md`]: file(source, `Body ${mark(id, 'body')}`),
    [`events/secret-${id}.ms.md`]: file(translation, `Badan ${mark(id, 'msbody')}`),
  }
}

const PUBLIC = {
  'events/open.en.md': file(
    { id: 1, title: 'Open day', slug: 'open-day', start_date: '2026-12-03 10:00:00', end_date: '2026-12-03 12:00:00' },
    'Open to all.',
  ),
  'events/own.en.md': file({
    id: 15,
    title: 'Author draft series',
    slug: 'author-draft',
    status: 'draft',
    author: 3,
    start_date: '2026-12-02 08:00:00',
    end_date: '2026-12-02 09:00:00',
    recurrence: { rrule: 'FREQ=WEEKLY;COUNT=3' },
  }),
  'events/weekly.en.md': file({
    id: 2,
    title: 'Public weekly',
    slug: 'public-weekly',
    start_date: '2026-12-01 08:00:00',
    end_date: '2026-12-01 09:00:00',
    recurrence: { rrule: 'FREQ=WEEKLY' },
  }),
}

let app: Awaited<ReturnType<typeof writableApp>>
let dir: string
beforeAll(async () => {
  const rules = fc.sample(fc.array(fc.constantFrom(...RULES), { minLength: 4, maxLength: 4 }), {
    seed: SEED,
    numRuns: 1,
  })[0]!
  const files: Record<string, string> = { ...PUBLIC }
  for (const [i, id] of SECRETS.entries()) Object.assign(files, seriesFiles(id, rules[i]!))
  dir = await mkdtemp(join(tmpdir(), 'almanac-series-secret-'))
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, 'content', path)), { recursive: true })
    await writeFile(join(dir, 'content', path), text)
  }
  app = await writableApp(dir)
  expect(app.problems.filter((p) => p.severity !== 'warning')).toEqual([])
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
  await rm(app.dir, { recursive: true, force: true })
})

/** Markers an answer shows that the request did not itself name. */
function leaked(text: string, url: string): string[] {
  const lower = text.toLowerCase()
  const asked = decodeURIComponent(url).toLowerCase()
  return [...markers.keys()].filter((marker) => lower.includes(marker) && !asked.includes(marker))
}

const firstOf = (id: Secret) => occurrenceId(id, `2026-12-0${id - 10} 10:00:00`)
const range = 'start_date=2026-11-01&end_date=2027-12-31&per_page=50'

describe('series an anonymous caller may not read', () => {
  it('their occurrences are in no list, post_parent list or search', async () => {
    const listed = (await call(app, `events?${range}`)).body.events.map((e: { id: number }) => Math.floor(e.id / 1e9))
    expect(new Set(listed)).toEqual(new Set([0, 2, 14]))
    for (const id of [11, 12, 13] as Secret[]) {
      const parent = await call(app, `events?post_parent=${id}&${range}`)
      expect(parent.text).not.toContain(`${firstOf(id)}`)
      const search = await call(app, `events?search=${mark(id, 'body')}&${range}`)
      expect(search.body.events ?? []).toEqual([])
    }
  })

  it('their occurrences and the series answer nothing by id or by slug', async () => {
    for (const id of [11, 12, 13] as Secret[]) {
      for (const path of [`events/${firstOf(id)}`, `events/${id}`, `events/by-slug/secret-${id}-2026-12-0${id - 10}`]) {
        const answer = await call(app, path)
        expect(answer.status, path).toBeGreaterThanOrEqual(400)
        expect(answer.text).not.toContain(`${firstOf(id)}`)
      }
    }
  })

  it('a protected series: occurrences listed blanked, found by no protected word, by id as the series', async () => {
    expect((await call(app, `events/${firstOf(14)}`)).status).toBe((await call(app, 'events/14')).status)
    const listed = await call(app, `events?post_parent=14&${range}`)
    expect(listed.body.events[0]).toMatchObject({
      id: firstOf(14),
      title: 'Locked series 14',
      description: '',
      excerpt: '',
      cost: '',
    })
    const opened = await call(app, `events/${firstOf(14)}?password=pw-right`)
    expect(opened.body.description).toContain(mark(14, 'odesc'))
    const search = await call(app, `events?search=${mark(14, 'odesc')}&${range}`)
    expect(search.body.events ?? []).toEqual([])
  })

  it('an editor reads what the anonymous caller does not, so the markers are there to find', async () => {
    const all = `events?${range}&status=draft,pending,private,publish`
    const answer = await call(app, all, { headers: as('admin') })
    const found = new Set(leaked(answer.text, '').map((marker) => markers.get(marker)))
    expect(found).toEqual(new Set([11, 12, 13]))
    expect((await call(app, `events/${firstOf(13)}`, { headers: as('admin') })).status).toBe(200)
  })
})

describe("a series' rights are its occurrences'", () => {
  it('its author and editors read the occurrences of a draft series; other roles do not', async () => {
    const one = occurrenceId(15, '2026-12-09 08:00:00')
    for (const [login, sees] of [
      ['author', true],
      ['editor', true],
      ['contributor', false],
      ['subscriber', false],
    ] as const) {
      const headers = as(login)
      const listed = await call(app, `events?post_parent=15&status=draft&${range}`, { headers })
      const ids = listed.status === 200 ? listed.body.events.map((event: { id: number }) => event.id) : []
      expect(ids.includes(one), `${login} lists`).toBe(sees)
      expect((await call(app, `events/${one}`, { headers })).status === 200, `${login} by id`).toBe(sees)
    }
  })
})

type Params = Record<string, string>

function requests(): fc.Arbitrary<string> {
  const marker = fc.constantFrom(...markers.keys())
  const word = fc.oneof(
    marker,
    marker.map((m) => m.slice(0, 6)),
    fc.constantFrom('moved', 'series', 'siri', 'body'),
  )
  const series = fc.constantFrom(1, 2, ...SECRETS)
  const anEvent = fc.oneof(
    series,
    fc
      .tuple(fc.constantFrom(2, ...SECRETS), fc.integer({ min: 0, max: 60 }))
      .map(([id, days]) =>
        occurrenceId(
          id,
          new Date(Date.UTC(2026, 11, 1 + days, id === 2 ? 8 : 10)).toISOString().slice(0, 19).replace('T', ' '),
        ),
      ),
  )
  const optional = (model: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<Params> =>
    fc
      .subarray(Object.keys(model), { maxLength: Math.min(4, Object.keys(model).length) })
      .chain((keys) => fc.record(Object.fromEntries(keys.map((key) => [key, model[key]!]))))
  const common = {
    ml_language: fc.constantFrom('en', 'ms'),
    password: fc.constantFrom('wrong', 'pw-0'),
    _fields: fc.constantFrom('title,description', 'recurrence,series', 'json_ld'),
  }
  const list = optional({
    ...common,
    page: fc.constantFrom('1', '2', '4'),
    per_page: fc.constantFrom('1', '3', '10', '50'),
    search: word,
    status: fc.constantFrom('publish', 'draft', 'private', 'pending', 'draft,pending,private'),
    post_parent: series.map(String),
    include: fc.array(anEvent, { minLength: 1, maxLength: 3 }).map((ids) => ids.join(',')),
    start_date: fc.constantFrom('2026-01-01', '2026-12-05'),
    end_date: fc.constantFrom('2027-12-31', '2026-12-10'),
    featured: fc.constantFrom('true', 'false'),
  }).map((params) => ['events', params] as const)
  const single = fc.tuple(anEvent, optional(common)).map(([id, params]) => [`events/${id}`, params] as const)
  const slug = fc
    .tuple(
      fc.constantFrom(...SECRETS, 2),
      fc.constantFrom('', '-2026-12-01', '-2026-12-02', '-2026-12-03', '-2026-12-04', '-2026-12-07'),
      fc.constantFrom('secret-', 'rahsia-', 'public-weekly'),
      optional(common),
    )
    .map(
      ([id, date, stem, params]) =>
        [`events/by-slug/${stem.endsWith('-') ? `${stem}${id}` : stem}${date}`, params] as const,
    )
  return fc.oneof(list, list, single, slug).map(([path, params]) => {
    const query = new URLSearchParams(params).toString()
    return `${path}${query ? `?${query}` : ''}`
  })
}

describe('the series leak property', () => {
  it('no anonymous answer, on any read route, shows a word of a series it may not read', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(requests(), { minLength: 1, maxLength: 4 }), async (urls) => {
        for (const url of urls) {
          const answer = await call(app, url)
          expect(answer.status, url).toBeLessThan(500)
          const headers = [...answer.headers].map(([k, v]) => `${k}: ${v}`).join('\n')
          expect(leaked(`${answer.text}\n${headers}`, url), `${url} (seed ${SEED})`).toEqual([])
          if (answer.status !== 200 || !Array.isArray(answer.body?.events)) continue
          const parents = answer.body.events.map((event: { id: number }) => Math.floor(event.id / 1e9))
          expect(
            parents.filter((id: number) => id >= 11 && id <= 13),
            `${url} (seed ${SEED})`,
          ).toEqual([])
        }
      }),
      { numRuns: RUNS, seed: SEED },
    )
  })
})
