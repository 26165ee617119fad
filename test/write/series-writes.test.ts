import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { occurrenceId } from '../../src/content/model/recurrence.ts'
import { as, call, json, type Login, writableApp } from '../helpers.ts'
import { reloadApp, snapshot } from '../routes/writes-tree.ts'

// Writing series through the API (docs/series-writes.md). The fixture: `Tuesday Yoga` (id 30), weekly from
// 2026-09-01 09:00 Europe/London, 2026-12-29 excluded, 2026-12-22 overridden (and in Malay); `Night Market`
// (id 40), six first Saturdays from 2026-12-05 in Kuala Lumpur, 2027-02-06 excluded, 2027-03-06 moved.

let app: Awaited<ReturnType<typeof writableApp>>
beforeEach(async () => {
  app = await writableApp('series')
})
afterEach(async () => {
  await rm(app.dir, { recursive: true, force: true })
})

const yoga = (start: string) => occurrenceId(30, start)
const read = (path: string) => readFile(join(app.content, 'events', path), 'utf8')
const CLUB = {
  title: 'Chess Club',
  start_date: '2027-01-04 19:00:00',
  end_date: '2027-01-04 21:00:00',
  timezone: 'Europe/London',
}

/** The occurrences of a series as lists show them: id, start and title, every page. */
async function occurrences(seriesId: number, login?: Login, lang = 'en') {
  const query = `events?post_parent=${seriesId}&per_page=50&start_date=2026-01-01&end_date=2027-12-31&ml_language=${lang}`
  const response = await call(app, query, login ? { headers: as(login) } : {})
  if (response.status === 404) return []
  expect(response.status, response.text).toBe(200)
  return response.body.events.map((event: Record<string, unknown>) => [event.id, event.start_date, event.title])
}

/** Expects a write refused with 400 naming `params`, and the tree as it was, byte for byte. */
async function expectRefused(path: string, body: unknown, params: string[], login: Login = 'admin') {
  const before = await snapshot(app.content)
  const response = await call(app, path, json('PATCH', body, as(login)))
  expect(response.status, response.text).toBe(400)
  expect(response.body.code).toBe('rest_invalid_param')
  expect(Object.keys(response.body.data.params).sort()).toEqual([...params].sort())
  expect(await snapshot(app.content)).toEqual(before)
  return response.body.data.params as Record<string, string>
}

describe('POST /events with a recurrence', () => {
  it('creates a series file whose answer carries its recurrence, and serves its occurrences', async () => {
    const recurrence = { rrule: 'RRULE:FREQ=WEEKLY;COUNT=4', exdate: ['2027-01-11'], rdate: ['2027-02-01T19:00'] }
    const response = await call(app, 'events', json('POST', { ...CLUB, recurrence }, as('admin')))
    expect(response.status, response.text).toBe(201)
    expect(response.body.id).toBe(41)
    expect(response.body.recurrence).toMatchObject({
      rrule: 'FREQ=WEEKLY;COUNT=4',
      rdate: ['2027-02-01 19:00:00'],
      exdate: ['2027-01-11'],
      count: 4,
    })
    expect(await read('chess-club.en.md')).toBe(
      [
        '---',
        'id: 41',
        'title: Chess Club',
        'slug: chess-club',
        'status: publish',
        'date: 2026-11-22 02:08:30',
        'modified: 2026-11-22 02:08:30',
        'author: 1',
        'start_date: 2027-01-04 19:00:00',
        'end_date: 2027-01-04 21:00:00',
        'timezone: Europe/London',
        'show_map: false',
        'show_map_link: false',
        'recurrence:',
        '  rrule: FREQ=WEEKLY;COUNT=4',
        '  rdate: ["2027-02-01 19:00:00"]',
        '  exdate: ["2027-01-11"]',
        '---',
        '',
      ].join('\n'),
    )
    expect((await occurrences(41)).map(([, start]: string[]) => start)).toEqual([
      '2027-01-04 19:00:00',
      '2027-01-18 19:00:00',
      '2027-01-25 19:00:00',
      '2027-02-01 19:00:00',
    ])
  })

  it('takes the RRULE alone as text, in a form body too', async () => {
    const body = new URLSearchParams({ ...CLUB, recurrence: 'FREQ=DAILY;COUNT=3' })
    const response = await call(app, 'events', {
      method: 'POST',
      body: body.toString(),
      headers: { ...as('editor'), 'Content-Type': 'application/x-www-form-urlencoded' },
    })
    expect(response.status, response.text).toBe(201)
    expect(response.body.recurrence.rrule).toBe('FREQ=DAILY;COUNT=3')
    expect(await occurrences(response.body.id)).toHaveLength(3)
  })

  it.each(
    [
      [{}, 'needs an rrule or rdate'],
      [{ rrule: '' }, 'needs an rrule or rdate'],
      [{ rrule: 'FREQ=SECONDLY' }, 'at least a minute apart'],
      [{ rrule: 'FREQ=WEEKLY;COUNT=2;UNTIL=20270101' }, 'COUNT and UNTIL'],
      [{ rrule: 'BYDAY=MO' }, 'names no FREQ'],
      [{ rrule: 'FREQ=WEEKLY;BYDAY=XX' }, 'recurrence.rrule'],
      [{ rrule: 5 }, 'not text'],
      // ical.js takes these, then throws as it starts iterating (a 500 before the write path tried them: src/write/series.ts).
      [{ rrule: 'FREQ=WEEKLY;BYMONTHDAY=31' }, 'For WEEKLY recurrences neither BYMONTHDAY nor BYYEARDAY may appear'],
      // Refused for the dates ical.js would get wrong (docs/recurrence.md).
      [{ rrule: 'FREQ=YEARLY;BYMONTHDAY=1,15' }, 'names its months in BYMONTH'],
      [{ rrule: 'FREQ=YEARLY;BYDAY=FR;BYMONTHDAY=29;BYMONTH=2,4' }, 'over several months takes BYMONTHDAY 1 to 28'],
      [{ rrule: 'FREQ=DAILY', rdate: ['2027-02-30'] }, 'not a real date'],
      [{ rrule: 'FREQ=DAILY', exdate: 'tomorrow' }, 'recurrence.exdate'],
      [{ rrule: 'FREQ=DAILY', until: '2027-01-01' }, 'recurrence.until: not a field'],
      [JSON.parse('{"rrule": "FREQ=DAILY", "__proto__": {"x": 1}}'), 'recurrence.__proto__'],
      [['FREQ=DAILY'], 'takes an object'],
      [7, 'takes an object'],
      [
        { rrule: 'FREQ=DAILY', rdate: Array.from({ length: 1001 }, (_, i) => `${2027 + (i % 9)}-01-01`) },
        'recurrence.rdate',
      ],
    ].map(([value, words]) => [JSON.stringify(value).slice(0, 60), value, words]),
  )('refuses %s with 400 naming recurrence in plain words, writing nothing', async (_, recurrence, words) => {
    const before = await snapshot(app.content)
    const response = await call(app, 'events', json('POST', { ...CLUB, recurrence }, as('admin')))
    expect(response.status, response.text).toBe(400)
    expect(response.body.code).toBe('rest_invalid_param')
    expect(Object.keys(response.body.data.params)).toEqual(['recurrence'])
    expect(response.body.data.params.recurrence).toContain(words)
    expect(await snapshot(app.content)).toEqual(before)
    // The id it would have taken is not used up.
    expect((await call(app, 'events', json('POST', CLUB, as('admin')))).body.id).toBe(41)
  })
})

describe('PATCH of a series', () => {
  it('changes every occurrence but the fields an override sets, in every language', async () => {
    const response = await call(app, 'events/30', json('PATCH', { title: 'Morning Yoga', cost: '7' }, as('admin')))
    expect(response.status, response.text).toBe(200)
    expect(response.body.recurrence.rrule).toBe('FREQ=WEEKLY;BYDAY=TU')
    const titles = new Map((await occurrences(30)).map(([id, , title]: [number, string, string]) => [id, title]))
    expect(titles.get(yoga('2026-12-22 09:00:00'))).toBe('Christmas Yoga')
    expect(titles.get(yoga('2026-12-15 09:00:00'))).toBe('Morning Yoga')
    expect(new Set(titles.values())).toEqual(new Set(['Morning Yoga', 'Christmas Yoga']))
    const shown = await call(app, `events/${yoga('2026-12-22 09:00:00')}?ml_language=ms`)
    expect(shown.body).toMatchObject({ title: 'Yoga Krismas', cost: '$7' })
  })

  it('replaces the recurrence; occurrences it keeps keep their ids', async () => {
    const before = await occurrences(40)
    const response = await call(
      app,
      'events/40',
      json('PATCH', { recurrence: { rrule: 'FREQ=MONTHLY;BYDAY=1SA;COUNT=3' } }, as('admin')),
    )
    expect(response.status, response.text).toBe(200)
    expect(response.body.recurrence).toMatchObject({ rrule: 'FREQ=MONTHLY;BYDAY=1SA;COUNT=3', exdate: [] })
    expect(await occurrences(40)).toEqual(
      before.slice(0, 2).concat([[occurrenceId(40, '2027-02-06 18:00:00'), '2027-02-06 18:00:00', 'Night Market']]),
    )
    expect(await read('market.en.md')).toContain('recurrence:\n  rrule: FREQ=MONTHLY;BYDAY=1SA;COUNT=3\noverrides:\n')
  })

  it('takes back what GET gave, worked-out parts included', async () => {
    const { body } = await call(app, 'events/30', { headers: as('admin') })
    const response = await call(app, 'events/30', json('PATCH', { recurrence: body.recurrence }, as('admin')))
    expect(response.status, response.text).toBe(200)
    expect(response.body.recurrence).toEqual(body.recurrence)
  })

  it('turns a series back into a single event with recurrence null, its overrides gone in every language', async () => {
    const response = await call(app, 'events/30', json('PATCH', { recurrence: null }, as('admin')))
    expect(response.status, response.text).toBe(200)
    expect(response.body.recurrence).toBeUndefined()
    expect(response.body.start_date).toBe('2026-09-01 09:00:00')
    expect(await read('yoga.en.md')).not.toMatch(/recurrence|overrides/)
    expect(await read('yoga.ms.md')).toBe(
      '---\ntitle: Yoga Selasa\nslug: yoga-selasa\n---\nRegangan setiap pagi Selasa.\n',
    )
    expect((await call(app, `events/${yoga('2026-12-15 09:00:00')}`)).status).toBe(404)
    expect((await reloadApp(app.content)).problems).toEqual([])
  })

  it('removes a translation file that held only overrides when the series becomes a single event', async () => {
    const id = occurrenceId(40, '2027-01-02 18:00:00')
    const written = await call(app, `events/${id}?ml_language=ms`, json('PATCH', { title: 'Pasar Malam' }, as('admin')))
    expect(written.status, written.text).toBe(200)
    expect(await read('market.ms.md')).toContain('Pasar Malam')
    const response = await call(app, 'events/40', json('PATCH', { recurrence: null }, as('admin')))
    expect(response.status, response.text).toBe(200)
    expect((await snapshot(app.content))['events/market.ms.md']).toBeUndefined()
    expect((await call(app, 'events/40?ml_language=ms')).body.title).toBe('Night Market')
    const problems = (await reloadApp(app.content)).problems
    expect(problems.filter((problem: { path: string }) => problem.path.includes('market'))).toEqual([])
  })

  it('keeps a translation file whose front matter still holds a comment, the overrides gone', async () => {
    const id = occurrenceId(40, '2027-01-02 18:00:00')
    const written = await call(app, `events/${id}?ml_language=ms`, json('PATCH', { title: 'Pasar Malam' }, as('admin')))
    expect(written.status, written.text).toBe(200)
    const path = join(app.content, 'events', 'market.ms.md')
    await writeFile(
      path,
      (await read('market.ms.md')).replace('---\n', '---\n# title: Pasar Malam Bulanan (to review)\n'),
    )
    await app.store.reload(['events/market.ms.md'])
    const response = await call(app, 'events/40', json('PATCH', { recurrence: null }, as('admin')))
    expect(response.status, response.text).toBe(200)
    expect(await read('market.ms.md')).toBe('---\n# title: Pasar Malam Bulanan (to review)\n---\n')
  })

  it('removes it when the only comments or # lines were inside the overrides', async () => {
    const path = join(app.content, 'events', 'market.ms.md')
    for (const text of [
      '---\noverrides:\n  "2027-01-02":\n    # checked by Siti\n    title: Pasar Malam\n---\n',
      '---\noverrides:\n  "2027-01-02":\n    description: |\n      # Pasar Malam\n      Gerai makanan.\n---\n',
    ]) {
      await writeFile(path, text)
      await app.store.reload(['events/market.ms.md'])
      const response = await call(
        app,
        'events/40',
        json('PATCH', { recurrence: 'FREQ=MONTHLY;BYDAY=1SA;COUNT=6' }, as('admin')),
      )
      expect(response.status, response.text).toBe(200)
      expect((await call(app, 'events/40', json('PATCH', { recurrence: null }, as('admin')))).status).toBe(200)
      expect((await snapshot(app.content))['events/market.ms.md'], text).toBeUndefined()
    }
  })

  it("removes a translation file that held only an occurrence's override when that occurrence is deleted", async () => {
    const id = occurrenceId(40, '2027-01-02 18:00:00')
    const written = await call(app, `events/${id}?ml_language=ms`, json('PATCH', { title: 'Pasar Malam' }, as('admin')))
    expect(written.status, written.text).toBe(200)
    const other = occurrenceId(40, '2027-04-03 18:00:00')
    expect(
      (await call(app, `events/${other}?ml_language=ms`, json('PATCH', { title: 'Pasar' }, as('admin')))).status,
    ).toBe(200)
    expect((await call(app, `events/${id}`, json('DELETE', {}, as('admin')))).status).toBe(200)
    expect(await read('market.ms.md')).not.toContain('Pasar Malam')
    expect((await call(app, `events/${other}`, json('DELETE', {}, as('admin')))).status).toBe(200)
    expect((await snapshot(app.content))['events/market.ms.md']).toBeUndefined()
    expect((await call(app, `events/${occurrenceId(40, '2027-05-01 18:00:00')}?ml_language=ms`)).body.title).toBe(
      'Night Market',
    )
  })

  it('turns a series back into a single event with recurrence sent empty in a form body', async () => {
    const response = await call(app, 'events/40', {
      method: 'PATCH',
      body: 'recurrence=',
      headers: { ...as('admin'), 'Content-Type': 'application/x-www-form-urlencoded' },
    })
    expect(response.status, response.text).toBe(200)
    expect(response.body.recurrence).toBeUndefined()
    expect(await read('market.en.md')).not.toMatch(/recurrence|overrides/)
  })

  it('refuses a bad recurrence, writing nothing', async () => {
    await expectRefused('events/30', { recurrence: { rrule: 'FREQ=YEARLY;COUNT=0' } }, ['recurrence'])
    await expectRefused('events/20', { recurrence: 'FREQ=DAILY;INTERVAL=x' }, ['recurrence'])
  })

  it('refuses to make a series of an event whose id is too high for its occurrences’ ids', async () => {
    const big = '---\nid: 9007199\ntitle: Big\nstart_date: 2027-01-01 10:00:00\nend_date: 2027-01-01 11:00:00\n---\n'
    await writeFile(join(app.content, 'events/big.en.md'), big)
    app = Object.assign(await reloadApp(app.content, app.dir), { dir: app.dir, content: app.content })
    const params = await expectRefused('events/9007199', { recurrence: 'FREQ=DAILY;COUNT=2' }, ['recurrence'])
    expect(params.recurrence).toContain('a series needs an id up to 9007198')
  })
})

describe('PATCH of an occurrence', () => {
  it('writes an override for that occurrence alone, keyed by its day, and answers the occurrence', async () => {
    const id = yoga('2026-12-08 09:00:00')
    const body = {
      title: 'Yoga in the park',
      start_date: '2026-12-08 10:00:00',
      end_date: '2026-12-08 11:30:00',
      venue: 11,
      description: 'Bring a mat.',
    }
    const response = await call(app, `events/${id}`, json('PATCH', body, as('admin')))
    expect(response.status, response.text).toBe(200)
    expect(response.body).toMatchObject({
      id,
      title: 'Yoga in the park',
      start_date: '2026-12-08 10:00:00',
      end_date: '2026-12-08 11:30:00',
      description: '<p>Bring a mat.</p>',
      series: { id: 30, start_date: '2026-12-08 09:00:00' },
    })
    expect(response.body.venue.id).toBe(11)
    expect(await read('yoga.en.md')).toContain(
      [
        'overrides:',
        '  "2026-12-08":',
        '    title: Yoga in the park',
        '    start_date: 2026-12-08 10:00:00',
        '    end_date: 2026-12-08 11:30:00',
        '    venue: [11]',
        '    description: Bring a mat.',
        '  "2026-12-22":',
        '    title: Christmas Yoga',
      ].join('\n'),
    )
    const next = await call(app, `events/${yoga('2026-12-15 09:00:00')}`)
    expect(next.body).toMatchObject({ title: 'Tuesday Yoga', start_date: '2026-12-15 09:00:00' })
    expect((await call(app, `events/${id}`)).text).toBe((await call(await reloadApp(app.content), `events/${id}`)).text)
  })

  it('puts translatable fields in the language of the request, the rest in the source', async () => {
    const id = yoga('2026-12-22 09:00:00')
    const response = await call(
      app,
      `events/${id}?ml_language=ms`,
      json('PATCH', { title: 'Yoga Krismas di taman', venue: 11, cost: '4' }, as('admin')),
    )
    expect(response.status, response.text).toBe(200)
    expect(response.body).toMatchObject({ title: 'Yoga Krismas di taman', cost: '$4', lang: 'ms' })
    const ms = await read('yoga.ms.md')
    expect(ms).toContain('overrides:\n  "2026-12-22":\n    title: Yoga Krismas di taman\n    cost: "4"\n---')
    const en = await read('yoga.en.md')
    expect(en).toContain('    end_date: 2026-12-23 19:30:00\n    venue: [11]\n---')
    expect((await call(app, `events/${id}`)).body).toMatchObject({ title: 'Christmas Yoga', cost: '' })
  })

  it('creates the language file when the series has none, with the override alone', async () => {
    const id = yoga('2026-12-15 09:00:00')
    const response = await call(app, `events/${id}?ml_language=ta`, json('PATCH', { title: 'யோகா' }, as('admin')))
    expect(response.status, response.text).toBe(200)
    expect(await read('yoga.ta.md')).toBe('---\noverrides:\n  "2026-12-15":\n    title: யோகா\n---\n')
    expect((await reloadApp(app.content)).problems.filter((p) => p.severity === 'error')).toEqual([])
  })

  it('refuses fields that are the whole series’, naming each, and writes nothing', async () => {
    const id = yoga('2026-12-08 09:00:00')
    const params = await expectRefused(
      `events/${id}`,
      { title: 'X', slug: 'x', status: 'draft', timezone: 'UTC', all_day: true, recurrence: 'FREQ=DAILY' },
      ['slug', 'status', 'timezone', 'all_day', 'recurrence'],
    )
    expect(params.slug).toContain('belongs to the whole series')
    await expectRefused(`events/${id}`, { author: 1, password: 'x', date: '2026-01-01' }, [
      'author',
      'password',
      'date',
    ])
    await expectRefused(`events/${id}`, { end_date: '2026-12-08 08:00:00' }, ['end_date'])
    // A translation's override holds one cost, as a translation does.
    await expectRefused(`events/${id}?ml_language=ms`, { cost: ['1', '2'] }, ['cost'])
  })

  it('keys the override by the wall clock when the day has several occurrences', async () => {
    const created = await call(
      app,
      'events',
      json(
        'POST',
        { ...CLUB, recurrence: { rrule: 'FREQ=DAILY;COUNT=3', rdate: ['2027-01-05 08:00:00'] } },
        as('admin'),
      ),
    )
    const id = occurrenceId(created.body.id, '2027-01-05 19:00:00')
    const response = await call(app, `events/${id}`, json('PATCH', { title: 'Late' }, as('admin')))
    expect(response.status, response.text).toBe(200)
    expect(await read('chess-club.en.md')).toContain('overrides:\n  "2027-01-05 19:00:00":\n    title: Late\n')
    const titles = (await occurrences(created.body.id)).map(([, start, title]: string[]) => `${start} ${title}`)
    expect(titles).toEqual([
      '2027-01-04 19:00:00 Chess Club',
      '2027-01-05 08:00:00 Chess Club',
      '2027-01-05 19:00:00 Late',
      '2027-01-06 19:00:00 Chess Club',
    ])
    const excluded = await call(
      app,
      `events/${occurrenceId(created.body.id, '2027-01-05 08:00:00')}`,
      json('DELETE', {}, as('admin')),
    )
    expect(excluded.status).toBe(200)
    expect(await read('chess-club.en.md')).toContain('exdate: ["2027-01-05 08:00:00"]')
  })

  it('writes a field sent empty as empty, which the occurrence shows', async () => {
    const id = yoga('2026-12-08 09:00:00')
    const response = await call(app, `events/${id}`, json('PATCH', { venue: 0, categories: [], cost: '' }, as('admin')))
    expect(response.status, response.text).toBe(200)
    expect(response.body).toMatchObject({ venue: [], categories: [], cost: '' })
    expect(await read('yoga.en.md')).toContain('  "2026-12-08":\n    venue: []\n    categories: []\n    cost: ""\n')
    expect((await call(app, `events/${yoga('2026-12-15 09:00:00')}`)).body.venue.id).toBe(10)
  })

  it('writes by slug too', async () => {
    const response = await call(
      app,
      'events/by-slug/tuesday-yoga-2026-12-08',
      json('PATCH', { title: 'By slug' }, as('admin')),
    )
    expect(response.status, response.text).toBe(200)
    expect(response.body).toMatchObject({ id: yoga('2026-12-08 09:00:00'), title: 'By slug' })
  })

  it('keeps both of two overrides of one series written at once', async () => {
    const [a, b] = await Promise.all([
      call(app, `events/${yoga('2026-12-01 09:00:00')}`, json('PATCH', { title: 'First' }, as('admin'))),
      call(app, `events/${yoga('2026-12-08 09:00:00')}`, json('PATCH', { title: 'Second' }, as('editor'))),
    ])
    expect([a.status, b.status]).toEqual([200, 200])
    const titles = new Map((await occurrences(30)).map(([id, , title]: [number, string, string]) => [id, title]))
    expect(titles.get(yoga('2026-12-01 09:00:00'))).toBe('First')
    expect(titles.get(yoga('2026-12-08 09:00:00'))).toBe('Second')
    expect(await occurrences(30)).toEqual(
      await (async () => {
        const fresh = await reloadApp(app.content)
        const r = await call(
          fresh,
          'events?post_parent=30&per_page=50&start_date=2026-01-01&end_date=2027-12-31&ml_language=en',
        )
        return r.body.events.map((event: Record<string, unknown>) => [event.id, event.start_date, event.title])
      })(),
    )
  })
})

describe('DELETE of an occurrence', () => {
  it('excludes it, drops its overrides in every language, and answers it in the trash; again is 410', async () => {
    const id = yoga('2026-12-22 09:00:00')
    const response = await call(app, `events/${id}`, json('DELETE', {}, as('admin')))
    expect(response.status, response.text).toBe(200)
    expect(response.body).toMatchObject({ id, title: 'Christmas Yoga', status: 'trash' })
    const en = await read('yoga.en.md')
    expect(en).toContain('  exdate: ["2026-12-22", "2026-12-29"]\n---')
    expect(en).not.toContain('overrides')
    expect(await read('yoga.ms.md')).not.toContain('overrides')
    expect((await call(app, `events/${id}`)).status).toBe(404)
    expect((await occurrences(30)).map(([other]: number[]) => other)).not.toContain(id)
    expect((await call(app, `events/${id}`, json('DELETE', {}, as('admin')))).status).toBe(410)
    expect((await call(app, `events/${id}`, json('DELETE', {}, as('contributor')))).status).toBe(404)
    expect((await reloadApp(app.content)).problems.filter((p) => p.severity === 'error')).toEqual([])
  })

  it('with force=true does the same and answers {deleted, previous}; only editors may send it', async () => {
    const id = yoga('2026-12-08 09:00:00')
    expect((await call(app, `events/${id}?force=true`, json('DELETE', {}, as('author')))).status).toBe(403)
    const response = await call(app, `events/${id}?force=true`, json('DELETE', {}, as('editor')))
    expect(response.status, response.text).toBe(200)
    expect(response.body).toMatchObject({ deleted: true, previous: { id, status: 'publish' } })
    expect(await read('yoga.en.md')).toContain('exdate: ["2026-12-08", "2026-12-29"]')
  })
})

describe("a slug of the form of a series' occurrence", () => {
  it('is not given to another event: a longer rule would serve that occurrence under it', async () => {
    const event = { ...CLUB, title: 'Fake Market', slug: 'night-market-2027-06-05' }
    const fake = await call(app, 'events', json('POST', event, as('author')))
    expect([fake.status, fake.body.slug]).toEqual([201, 'night-market-2027-06-05-2'])
    const more = await call(
      app,
      'events/40',
      json('PATCH', { recurrence: 'FREQ=MONTHLY;BYDAY=1SA;COUNT=7' }, as('admin')),
    )
    expect(more.status, more.text).toBe(200)
    const june = await call(app, 'events/by-slug/night-market-2027-06-05')
    expect([june.body.id, june.body.start_date]).toEqual([
      occurrenceId(40, '2027-06-05 18:00:00'),
      '2027-06-05 18:00:00',
    ])
    const other = await call(app, 'events', json('POST', { ...CLUB, slug: 'chess-club-2027-06-05' }, as('author')))
    expect(other.body.slug).toBe('chess-club-2027-06-05')
  })

  it('stays with an event that holds it already, sent back unchanged', async () => {
    const file =
      '---\nid: 90\ntitle: Old Fair\nslug: night-market-2027-06-05\nstart_date: 2027-06-05 10:00:00\nend_date: 2027-06-05 12:00:00\n---\n'
    await writeFile(join(app.content, 'events', 'old-fair.en.md'), file)
    await app.store.reload(['events/old-fair.en.md'])
    const put = await call(
      app,
      'events/90',
      json('PUT', { title: 'Old Fair', slug: 'night-market-2027-06-05' }, as('admin')),
    )
    expect([put.status, put.body.slug]).toEqual([200, 'night-market-2027-06-05'])
  })
})

describe('DELETE of a series', () => {
  it('trashes it whole: no occurrence is listed any more; force=true deletes its files', async () => {
    const response = await call(app, 'events/30', json('DELETE', {}, as('admin')))
    expect(response.status, response.text).toBe(200)
    expect(response.body.status).toBe('trash')
    expect(await occurrences(30)).toEqual([])
    expect((await call(app, `events/${yoga('2026-12-15 09:00:00')}`)).status).toBe(403)
    const occurrence = `events/${yoga('2026-12-15 09:00:00')}`
    const trashed = await call(app, occurrence, json('PATCH', { title: 'X' }, as('admin')))
    expect(trashed.status).toBe(410)
    expect(trashed.body.code).toBe('event-is-in-trash')
    expect((await call(app, occurrence, json('DELETE', {}, as('admin')))).status).toBe(410)
    const gone = await call(app, 'events/30?force=true', json('DELETE', {}, as('admin')))
    expect(gone.status, gone.text).toBe(200)
    expect((await snapshot(app.content))['events/yoga.en.md']).toBeUndefined()
    expect((await snapshot(app.content))['events/yoga.ms.md']).toBeUndefined()
  })
})

describe("who may write a series' occurrences: the series' rights", () => {
  it('answers anonymous 401 and a subscriber 403, writing nothing', async () => {
    const before = await snapshot(app.content)
    const id = yoga('2026-12-08 09:00:00')
    expect((await call(app, `events/${id}`, json('PATCH', { title: 'X' }))).status).toBe(401)
    expect((await call(app, `events/${id}`, json('DELETE', {}))).status).toBe(401)
    expect((await call(app, `events/${id}`, json('PATCH', { title: 'X' }, as('subscriber')))).status).toBe(403)
    expect(await snapshot(app.content)).toEqual(before)
  })

  it('lets an author change occurrences of their own series only', async () => {
    const mine = await call(app, 'events', json('POST', { ...CLUB, recurrence: 'FREQ=WEEKLY;COUNT=3' }, as('author')))
    expect(mine.body.status).toBe('publish')
    const own = occurrenceId(mine.body.id, '2027-01-11 19:00:00')
    expect((await call(app, `events/${own}`, json('PATCH', { title: 'Mine' }, as('author')))).status).toBe(200)
    expect((await call(app, `events/${own}`, json('DELETE', {}, as('author')))).status).toBe(200)
    const before = await snapshot(app.content)
    const theirs = yoga('2026-12-08 09:00:00')
    expect((await call(app, `events/${theirs}`, json('PATCH', { title: 'X' }, as('author')))).status).toBe(403)
    expect((await call(app, `events/${theirs}`, json('DELETE', {}, as('author')))).status).toBe(403)
    expect((await call(app, `events/${theirs}`, json('PATCH', { title: 'X' }, as('contributor')))).status).toBe(403)
    expect(await snapshot(app.content)).toEqual(before)
  })

  it('lets a contributor change occurrences of their own series until it is published', async () => {
    const mine = await call(
      app,
      'events',
      json('POST', { ...CLUB, recurrence: 'FREQ=WEEKLY;COUNT=3' }, as('contributor')),
    )
    expect(mine.body.status).toBe('draft')
    const own = occurrenceId(mine.body.id, '2027-01-11 19:00:00')
    expect((await call(app, `events/${own}`, json('PATCH', { title: 'Mine' }, as('contributor')))).status).toBe(200)
    expect((await call(app, `events/${mine.body.id}`, json('PATCH', { status: 'publish' }, as('editor')))).status).toBe(
      200,
    )
    expect((await call(app, `events/${own}`, json('PATCH', { title: 'Again' }, as('contributor')))).status).toBe(403)
    expect((await call(app, `events/${own}`)).body.title).toBe('Mine')
  })
})

describe('If-Match on occurrences and series (docs/compatibility.md §14)', () => {
  it("compares an occurrence's own ETag, and a series' its own", async () => {
    const id = yoga('2026-12-08 09:00:00')
    const tag = (await call(app, `events/${id}`, { headers: as('admin') })).headers.get('etag')!
    const seriesTag = (await call(app, 'events/30', { headers: as('admin') })).headers.get('etag')!
    expect(tag).not.toBe(seriesTag)
    const wrong = await call(
      app,
      `events/${id}`,
      json('PATCH', { title: 'A' }, { ...as('admin'), 'If-Match': seriesTag }),
    )
    expect(wrong.status).toBe(412)
    expect(wrong.headers.get('etag')).toBe(tag)
    const right = await call(app, `events/${id}`, json('PATCH', { title: 'B' }, { ...as('admin'), 'If-Match': tag }))
    expect(right.status, right.text).toBe(200)
    const stale = await call(app, `events/${id}`, json('DELETE', {}, { ...as('admin'), 'If-Match': tag }))
    expect(stale.status).toBe(412)
    const series = await call(
      app,
      'events/30',
      json('PATCH', { title: 'C' }, { ...as('admin'), 'If-Match': seriesTag }),
    )
    expect(series.status).toBe(412)
  })
})

describe('the recurrence argument is described', () => {
  it('in the namespace index, in /doc’s event writes and in its Event schema', async () => {
    const index = await call(app, '')
    const create = index.body.routes['/calendar/events/v1/events'].endpoints[1]
    expect(create.methods).toEqual(['POST'])
    expect(create.args.recurrence.description).toContain('{rrule, rdate, exdate}')
    const doc = (await call(app, 'doc')).body
    const body = doc.paths['/events/{id}'].post.requestBody.content['application/x-www-form-urlencoded'].schema
    expect(body.properties.recurrence.description).toContain('a text is the RRULE alone')
    expect(Object.keys(doc.components.schemas.Event.properties).slice(-4)).toEqual([
      'lang',
      'translations',
      'recurrence',
      'series',
    ])
  })
})
