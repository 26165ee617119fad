import { readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { as, call, json, writableApp, type Login } from '../helpers.ts'

let app: Awaited<ReturnType<typeof writableApp>>
beforeEach(async () => {
  app = await writableApp('reference')
})
afterEach(async () => {
  await rm(app.dir, { recursive: true, force: true })
})

const HOSTILE =
  '<script>alert(1)</script><img src="https://example.org/a.png" onerror="alert(2)"> <a href="javascript:alert(3)">x</a> <a href="https://example.org/" onclick="alert(4)">ok</a> <iframe src="https://evil.example"></iframe>'
const EVENT = {
  title: 'Night <b>Market</b><script>alert(5)</script>',
  start_date: '2026-12-20 18:00:00',
  end_date: '2026-12-20 23:00:00',
  description: HOSTILE,
  excerpt: HOSTILE,
}

/** Every file of the tree, as text: what is stored, whatever the API serves. */
async function treeText(): Promise<string> {
  const names = await readdir(app.content, { recursive: true, withFileTypes: true })
  const files = names.filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
  return (await Promise.all(files.map((entry) => readFile(join(entry.parentPath, entry.name), 'utf8')))).join('\n')
}

function expectClean(text: string) {
  expect(text).not.toMatch(/<script|onerror|onclick|javascript:|<iframe|alert\(5\)/i)
}

describe('HTML from contributors and authors is sanitized (no unfiltered_html)', () => {
  it.each<Login>(['contributor', 'author'])(
    'stores and serves an event of a %s without scripts, handlers or javascript: links',
    async (login) => {
      const created = await call(app, 'events', json('POST', EVENT, as(login)))
      expect(created.status).toBe(201)
      for (const text of [created.text, await treeText()]) expectClean(text)
      expect(created.body.description).toContain('<a href="https://example.org/">ok</a>')
      expect(created.body.description).toContain('<img src="https://example.org/a.png"')
      expect(created.body.title).toBe('Night <b>Market</b>')
    },
  )

  it('sanitizes what a contributor updates, and the venues and organizers an author creates', async () => {
    const created = await call(app, 'events', json('POST', { ...EVENT, description: 'plain' }, as('contributor')))
    expect(created.status).toBe(201)
    const updated = await call(
      app,
      `events/${created.body.id}`,
      json('POST', { description: HOSTILE, title: 'T<script>alert(5)</script>' }, as('contributor')),
    )
    expect(updated.status).toBe(200)
    const venue = await call(
      app,
      'venues',
      json('POST', { venue: 'Other Hall<script>alert(5)</script>', description: HOSTILE }, as('author')),
    )
    expect(venue.status).toBe(201)
    const organizer = await call(
      app,
      'organizers',
      json('POST', { organizer: 'Other Org', description: HOSTILE }, as('author')),
    )
    expect(organizer.status).toBe(201)
    expectClean(await treeText())
  })

  it('strips every tag from the plain-text fields of venues, organizers and costs', async () => {
    const script = '</script><script>alert(1)</script>'
    const venue = await call(
      app,
      'venues',
      json(
        'POST',
        {
          venue: 'Script Hall',
          address: `1 Road${script}`,
          city: `City${script}`,
          zip: `0123${script}`,
          phone: `+65${script}`,
        },
        as('author'),
      ),
    )
    expect(venue.status).toBe(201)
    const organizer = await call(
      app,
      'organizers',
      json('POST', { organizer: 'Script Org', phone: `+65${script}`, email: `a@b.test${script}` }, as('author')),
    )
    expect(organizer.status).toBe(201)
    const event = await call(
      app,
      'events',
      json('POST', { ...EVENT, cost: `S$5${script}`, venue: venue.body.id }, as('author')),
    )
    expect(event.status).toBe(201)
    const translated = await call(
      app,
      `events/${event.body.id}?ml_language=ms`,
      json('POST', { cost: `RM5${script}` }, as('author')),
    )
    expect(translated.status).toBe(200)
    for (const text of [venue.text, organizer.text, event.text, translated.text, await treeText()])
      expect(text).not.toMatch(/<\/?script/i)
    expect(venue.body.address).toBe('1 Road')
  })

  it('sanitizes the inline venues and organizers a contributor creates with an event', async () => {
    const created = await call(
      app,
      'events',
      json(
        'POST',
        {
          ...EVENT,
          description: 'plain',
          venue: { venue: 'Hall<script>alert(5)</script>', description: HOSTILE },
          organizer: [{ organizer: 'Org', description: HOSTILE }],
        },
        as('contributor'),
      ),
    )
    expect(created.status).toBe(201)
    expectClean(await treeText())
  })

  it('sanitizes the name and description of a category an author creates', async () => {
    const created = await call(
      app,
      'categories',
      json('POST', { name: 'Fun<script>alert(5)</script>', description: HOSTILE }, as('author')),
    )
    expect(created.status).toBe(201)
    expectClean(created.text)
    expectClean(await treeText())
  })

  it('keeps Markdown as written: quotes, ampersands and comparisons', async () => {
    const description = '> A quote & more\n\n1 < 2 and *emphasis* [link](https://example.org)'
    const created = await call(app, 'events', json('POST', { ...EVENT, description }, as('contributor')))
    expect(created.body.description).toBe(
      '<blockquote>\n<p>A quote &amp; more</p>\n</blockquote>\n<p>1 &lt; 2 and <em>emphasis</em> <a href="https://example.org">link</a></p>',
    )
  })

  it.each<Login>(['editor', 'admin'])('keeps raw HTML an %s writes (unfiltered_html)', async (login) => {
    const created = await call(
      app,
      'events',
      json('POST', { ...EVENT, description: '<div onclick="go()">x</div>' }, as(login)),
    )
    expect(created.status).toBe(201)
    expect(created.body.description).toBe('<div onclick="go()">x</div>')
  })
})

describe('URL fields take only http(s)', () => {
  it.each([
    ['venues', { venue: 'Hall', website: 'javascript://example.org/%0aalert(1)' }],
    ['organizers', { organizer: 'Org', website: 'ftp://example.org/' }],
    ['events', { ...EVENT, website: 'data://example.org/x' }],
  ])('answers a %s website of another scheme 400 rest_invalid_param, writing nothing', async (list, body) => {
    const before = await treeText()
    const response = await call(app, list, json('POST', body, as('admin')))
    expect(response.status).toBe(400)
    expect(response.body).toMatchObject({
      code: 'rest_invalid_param',
      data: { status: 400, params: { website: expect.any(String) } },
    })
    expect(await treeText()).toBe(before)
  })

  it('takes an https website', async () => {
    const response = await call(
      app,
      'venues',
      json('POST', { venue: 'Hall', website: 'https://example.org/hall' }, as('admin')),
    )
    expect(response.status).toBe(201)
    expect(response.body.website).toBe('https://example.org/hall')
  })
})

describe('how much text contributors and authors may write', () => {
  it.each<Login>(['contributor', 'author'])(
    'answers a %s description over 16,384 characters 400, writing nothing',
    async (login) => {
      const before = await treeText()
      const response = await call(
        app,
        'events',
        json('POST', { ...EVENT, description: '<'.repeat(240_000) }, as(login)),
      )
      expect(response.status).toBe(400)
      expect(response.body).toMatchObject({
        code: 'rest_invalid_param',
        data: {
          status: 400,
          params: { description: 'description takes at most 16384 characters from contributors and authors.' },
        },
      })
      expect(await treeText()).toBe(before)
    },
  )

  it('takes a description of 16,384 characters from a contributor', async () => {
    const response = await call(
      app,
      'events',
      json('POST', { ...EVENT, description: 'a'.repeat(16_384) }, as('contributor')),
    )
    expect(response.status).toBe(201)
  })
})

describe('names and titles that are markup alone', () => {
  const refusals: [string, string, Record<string, unknown>, string][] = [
    ['an event title', 'events', { ...EVENT, title: '<script>alert(1)</script>' }, 'title'],
    ['an event title of an empty paragraph', 'events', { ...EVENT, title: '<p></p><!-- c -->' }, 'title'],
    ['a venue name', 'venues', { venue: '<script>x</script>' }, 'venue'],
    ['an organizer name', 'organizers', { organizer: '<style>x</style>' }, 'organizer'],
    ['a category name', 'categories', { name: '<script>x</script>' }, 'name'],
    [
      'an inline organizer, after a good one',
      'events',
      { ...EVENT, organizer: [{ organizer: 'Good New Org' }, { organizer: '<script>x</script>' }] },
      'organizer',
    ],
    ['an inline venue', 'events', { ...EVENT, venue: { venue: '<script>x</script>' } }, 'venue'],
    ['a category an event creates', 'events', { ...EVENT, categories: ['Talks', '<script>x</script>'] }, 'categories'],
  ]
  it.each(refusals)('answers %s 400 for an author, writing nothing', async (_what, route, body, field) => {
    const before = await treeText()
    const response = await call(app, route, json('POST', body, as('author')))
    expect(response.status).toBe(400)
    expect(response.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400 } })
    expect(Object.keys(response.body.data.params)).toEqual([field])
    expect(await treeText()).toBe(before)
  })

  it('answers an update of an own event to a title of markup alone 400, writing nothing', async () => {
    const created = await call(app, 'events', json('POST', EVENT, as('author')))
    const before = await treeText()
    const response = await call(
      app,
      `events/${created.body.id}`,
      json('PATCH', { title: '<iframe></iframe>' }, as('author')),
    )
    expect(response.status).toBe(400)
    expect(await treeText()).toBe(before)
  })
})

describe('how much text one write of a contributor or author may send through the sanitizer', () => {
  // Dense markup costs sanitize-html up to ~1 µs a character, and deep nesting far more: 300 KB of `<b>` held the
  // event loop for seconds before the bound.
  const nested = (n: number) => '<b>'.repeat(n)
  const cases: [string, string, Record<string, unknown>][] = [
    ['a venue', 'venues', { venue: 'v', address: nested(10_000), city: nested(10_000), province: nested(10_000) }],
    ['an event', 'events', { ...EVENT, title: `${nested(10_000)}x`, cost: nested(10_000), excerpt: nested(5_000) }],
    [
      'an event and its new venue',
      'events',
      { ...EVENT, title: `${nested(8_000)}x`, venue: { venue: `${nested(15_000)}v` } },
    ],
  ]
  it.each(cases)('answers %s past it 400, writing nothing', async (_what, route, body) => {
    for (const login of ['contributor', 'author'] as const) {
      const before = await treeText()
      const response = await call(app, route, json('POST', body, as(login)))
      expect(response.status).toBe(400)
      expect(response.body.code).toBe('rest_invalid_param')
      expect(Object.values(response.body.data.params)).toEqual([
        'A write from contributors and authors holds at most 65536 characters of text.',
      ])
      expect(await treeText()).toBe(before)
    }
  })

  it("names the event's parameter when a record it creates passes the bound", async () => {
    const body = { ...EVENT, venue: { venue: 'Hall', address: '<b>'.repeat(25_000) } }
    const response = await call(app, 'events', json('POST', body, as('author')))
    expect(response.status).toBe(400)
    expect(Object.keys(response.body.data.params)).toEqual(['venue'])
  })

  it('takes a full description and excerpt with the rest of an event', async () => {
    const body = { ...EVENT, description: 'd'.repeat(16_384), excerpt: 'e'.repeat(16_384), cost: 'c'.repeat(20_000) }
    expect((await call(app, 'events', json('POST', body, as('contributor')))).status).toBe(201)
  })

  it('does not bound editors, who keep what they write', async () => {
    const body = { venue: 'v', address: 'a'.repeat(30_000), city: 'c'.repeat(30_000), province: 'p'.repeat(30_000) }
    expect((await call(app, 'venues', json('POST', body, as('editor')))).status).toBe(201)
  })
})
