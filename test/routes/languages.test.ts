import { beforeAll, describe, expect, it } from 'vitest'
import { call, fixtureApp } from '../helpers.ts'

describe('languages', () => {
  let app: Awaited<ReturnType<typeof fixtureApp>>
  beforeAll(async () => {
    app = await fixtureApp('reference')
  })

  it('serves the translation named by ml_language, and says so in lang', async () => {
    const { body } = await call(app, 'events/7?ml_language=ms')
    expect(body.title).toBe('Konsert Musim Panas')
    expect(body.description).toBe('<p>Malam muzik <strong>secara langsung</strong>.</p>')
    expect(body.slug).toBe('konsert-musim-panas')
    expect(body.lang).toBe('ms')
    expect(body.url).toBe('http://127.0.0.1:8089/ms/event/konsert-musim-panas/')
    expect(body.rest_url).toBe('http://127.0.0.1:8089/wp-json/calendar/events/v1/events/7?ml_language=ms')
  })

  it('keeps untranslated fields from the source file', async () => {
    const { body } = await call(app, 'events/7?ml_language=ms')
    expect(body.start_date).toBe('2026-11-25 19:00:00')
    expect(body.cost).toBe('$15')
    expect(body.excerpt).toBe('<p>Live music in the hall</p>')
  })

  it('takes the language from a path prefix in front of the API root', async () => {
    const { body } = await call(app, '/ms/wp-json/calendar/events/v1/events/7')
    expect(body.lang).toBe('ms')
    expect(body.title).toBe('Konsert Musim Panas')
  })

  it('falls back to the source language for records with no translation', async () => {
    const { body } = await call(app, 'events/8?ml_language=ta')
    expect(body.lang).toBe('en')
    expect(body.title).toBe('Plain Meetup')
  })

  it('hides untranslated records when fallback is off', async () => {
    const strict = await fixtureApp('reference', { fallback: false })
    expect((await call(strict, 'events/8?ml_language=ta')).status).toBe(404)
    const list = await call(strict, 'events?ml_language=ms')
    expect(list.body.events.map((e: { id: number }) => e.id)).toEqual([7])
  })

  it('lists every translation a record has, the current one included', async () => {
    const { body } = await call(app, 'events/11')
    expect(body.translations).toEqual({
      en: { id: 11, slug: 'gala-five', rest_url: 'http://127.0.0.1:8089/wp-json/calendar/events/v1/events/11' },
      'zh-hans': {
        id: 11,
        slug: '第五届晚会',
        rest_url: 'http://127.0.0.1:8089/wp-json/calendar/events/v1/events/11?ml_language=zh-hans',
      },
    })
    expect(Object.keys(body).slice(-2)).toEqual(['lang', 'translations'])
  })

  it('finds a translated slug in its language, in UTF-8 or percent-encoded (docs/compatibility.md §10)', async () => {
    const raw = await call(app, `events/by-slug/${encodeURIComponent('第五届晚会')}?ml_language=zh-hans`)
    expect(raw.status).toBe(200)
    expect(raw.body.id).toBe(11)
    const english = await call(app, `events/by-slug/${encodeURIComponent('第五届晚会')}`)
    expect(english.status).toBe(400)
  })

  it('writes Chinese as UTF-8, not \\u escapes (docs/compatibility.md §9)', async () => {
    const { text } = await call(app, 'events/11?ml_language=zh-hans')
    expect(text).toContain('"title":"第五届晚会"')
  })

  it('marks embedded terms, venues and organizers with their language only', async () => {
    const { body } = await call(app, 'events/7?ml_language=ms')
    expect(body.categories[0]).toMatchObject({ name: 'Muzik', slug: 'muzik', lang: 'ms' })
    expect(body.categories[0].translations).toBeUndefined()
    expect(body.venue.lang).toBe('en')
    expect(body.venue.translations).toBeUndefined()
    expect(body.organizer[0].lang).toBe('en')
  })

  it('carries ml_language in list links when the request named it', async () => {
    const { body } = await call(app, 'events?ml_language=ms&per_page=2')
    expect(body.rest_url).toMatch(/&ml_language=ms$/)
    expect(body.next_rest_url).toMatch(/&ml_language=ms&page=2$/)
    const terms = await call(app, 'categories?ml_language=ms')
    expect(terms.body.rest_url).toBe('http://127.0.0.1:8089/wp-json/calendar/events/v1/categories/?ml_language=ms')
  })

  it('keeps the path prefix in list links', async () => {
    const { body } = await call(app, '/ms/wp-json/calendar/events/v1/events')
    expect(body.rest_url.startsWith('http://127.0.0.1:8089/ms/wp-json/calendar/events/v1/events/?')).toBe(true)
  })

  it('rejects an unknown ml_language with 400 rest_invalid_param', async () => {
    const response = await call(app, 'events?ml_language=fr')
    expect(response.status).toBe(400)
    expect(response.body).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): ml_language',
      data: { status: 400, params: { ml_language: 'Invalid parameter.' }, details: [] },
    })
  })

  it('lists the languages on the root route (docs/compatibility.md §1)', async () => {
    const { body } = await call(app, '')
    expect(body.languages).toEqual([
      { code: 'en', name: 'English', default: true },
      { code: 'zh-hans', name: '简体中文', default: false },
      { code: 'ms', name: 'Bahasa Melayu', default: false },
      { code: 'ta', name: 'தமிழ்', default: false },
    ])
  })
})
