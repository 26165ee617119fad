import { rm } from 'node:fs/promises'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createStore, type Problem } from '../../src/content/store.ts'
import { as, call, json, writableApp } from '../helpers.ts'

let app: Awaited<ReturnType<typeof writableApp>>
beforeEach(async () => {
  app = await writableApp('reference')
})
afterEach(async () => {
  await rm(app.dir, { recursive: true, force: true })
})

async function reloadProblems(): Promise<Problem[]> {
  const problems: Problem[] = []
  await createStore(app.content, { defaultLanguage: 'en', fallback: true, onProblem: (p) => problems.push(p) })
  return problems
}

describe('slugs of records written in one language are free in every language they are served in', () => {
  it('gives a Malay-only event a slug no English event uses, so the English one survives a restart', async () => {
    const created = await call(
      app,
      'events?ml_language=ms',
      json(
        'POST',
        { title: 'Summer Concert', start_date: '2027-03-02 18:00:00', end_date: '2027-03-02 21:00:00' },
        as('contributor'),
      ),
    )
    expect(created.status).toBe(201)
    expect(created.body.slug).not.toBe('summer-concert')
    expect((await call(app, 'events/by-slug/summer-concert')).body.id).toBe(7)
    expect(await reloadProblems()).toEqual([])
  })

  it('gives an English event a slug that no translation of another event uses', async () => {
    const created = await call(
      app,
      'events',
      json(
        'POST',
        { title: 'Konsert Musim Panas', start_date: '2027-03-02 18:00:00', end_date: '2027-03-02 21:00:00' },
        as('author'),
      ),
    )
    expect(created.status).toBe(201)
    expect(created.body.slug).not.toBe('konsert-musim-panas')
    expect((await call(app, 'events/by-slug/konsert-musim-panas?ml_language=ms')).body.id).toBe(7)
    expect(await reloadProblems()).toEqual([])
  })

  it("gives a new English category a slug that another category's translation uses elsewhere", async () => {
    const created = await call(app, 'categories', json('POST', { name: 'Muzik' }, as('admin')))
    expect(created.status).toBe(201)
    expect(created.body.slug).not.toBe('muzik')
    expect(await reloadProblems()).toEqual([])
  })

  it("refuses a term's new slug that another term's translation holds", async () => {
    const jazz = await call(app, 'categories', json('POST', { name: 'Jazz' }, as('admin')))
    const taken = await call(app, `categories/${jazz.body.id}`, json('PATCH', { slug: 'muzik' }, as('admin')))
    expect(taken.status).toBe(400)
    expect(taken.body.code).toBe('duplicate_term_slug')
    expect(await reloadProblems()).toEqual([])
  })
})
