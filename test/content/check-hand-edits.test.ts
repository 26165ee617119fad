import { rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { checkContent } from '../../src/content/check.ts'
import { call, writableApp } from '../helpers.ts'

// What check tells of files edited by hand that the server would serve oddly. A hand-written event without
// `slug:` was served with `"slug": ""` and a `url` ending `/event//`, with no word from check. Now check warns of a
// source without a slug (drafts aside: WordPress gives one on publishing), suggesting the one the API would make,
// and the url takes WordPress's `?p=` form meanwhile. And a `trashed_from` left on a post out of the trash.

let app: Awaited<ReturnType<typeof writableApp>>
beforeEach(async () => {
  app = await writableApp('reference')
})
afterEach(() => rm(app.dir, { recursive: true, force: true }))

const file = (id: number, title: string, extra = '') =>
  `---\nid: ${id}\ntitle: ${title}\n${extra}date: 2026-11-01 10:00:00\nstart_date: 2027-01-04 19:00:00\nend_date: 2027-01-04 21:00:00\n---\nHi.\n`

describe('a source written without a slug', () => {
  it('is warned of, drafts aside, and served with the ?p= url', async () => {
    await writeFile(join(app.content, 'events/no-slug.en.md'), file(901, 'Chess Club'))
    await writeFile(join(app.content, 'events/draft.en.md'), file(902, 'Draft Club', 'status: draft\n'))
    const { problems } = await checkContent(app.content, false)
    expect(problems.filter((p) => /slug/.test(p.message)).map((p) => [p.path, p.severity, p.message])).toEqual([
      [
        'events/no-slug.en.md',
        'warning',
        'slug is not set, so it is served with an empty slug and has no by-slug address: add one (slug: chess-club, made from its title as the API makes one)',
      ],
    ])
    await app.store.reload(['events/no-slug.en.md'])
    const { body } = await call(app, 'events/901')
    expect([body.slug, body.url]).toEqual(['', `${body.url.split('/?')[0]}/?post_type=tribe_events&p=901`])
  })

  it('suggests a slug no record holds, nor another suggestion, so following them all makes no clash', async () => {
    await writeFile(join(app.content, 'events/one.en.md'), file(901, 'Chess Club'))
    await writeFile(join(app.content, 'events/two.en.md'), file(902, 'Chess Club'))
    await writeFile(join(app.content, 'events/holder.en.md'), file(903, 'Holder', 'slug: chess-club\n'))
    await writeFile(join(app.content, 'events/bang.en.md'), file(904, '"!!!"'))
    const { problems } = await checkContent(app.content, false)
    const suggested = problems.flatMap((p) => /\(slug: (\S+),/.exec(p.message)?.slice(1) ?? [])
    expect(suggested).toEqual(['chess-club-2', 'chess-club-3', 'untitled'])
  })
})

describe('trashed_from on a post that is not in the trash', () => {
  it('is warned of on its line: it is read only in the trash', async () => {
    const files = {
      'restored.en.md': file(905, 'Restored', 'slug: restored\ntrashed_from: publish\n'),
      'binned.en.md': file(906, 'Binned', 'slug: binned\nstatus: trash\ntrashed_from: publish\n'),
    }
    for (const [name, text] of Object.entries(files)) await writeFile(join(app.content, 'events', name), text)
    const { problems } = await checkContent(app.content, false)
    expect(problems.filter((p) => /trashed_from/.test(p.message)).map((p) => [p.path, p.line, p.severity])).toEqual([
      ['events/restored.en.md', 5, 'warning'],
    ])
  })
})
