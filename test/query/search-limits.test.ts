import { describe, expect, it } from 'vitest'
import { call, fixtureApp } from '../helpers.ts'

describe('search limits', () => {
  const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ')

  it.each(['events', 'venues', 'organizers', 'categories', 'tags'])(
    'answers a search of 2,000 words on %s 400, naming search and the limit',
    async (list) => {
      const app = await fixtureApp('reference')
      const response = await call(app, `${list}?search=${encodeURIComponent(words(2000))}`)
      expect(response.status).toBe(400)
      expect(response.body).toMatchObject({
        code: 'rest_invalid_param',
        data: { status: 400, params: { search: 'search takes at most 20 words and 200 characters.' } },
      })
    },
  )

  it('answers a search of one 100,000-character word 400', async () => {
    const app = await fixtureApp('reference')
    expect((await call(app, `events?search=${'a'.repeat(100_000)}`)).status).toBe(400)
  })

  it('takes a search of 20 words', async () => {
    const app = await fixtureApp('reference')
    expect((await call(app, `events?search=${encodeURIComponent(words(20))}`)).status).toBe(200)
  })
})
