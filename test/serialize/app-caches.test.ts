import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../src/app.ts'
import type { ContentRecord } from '../../src/content/store.ts'
import { createMemoCache } from '../../src/serialize/memo.ts'
import { FIXTURES, SAMPLE_NOW, call, testSite } from '../helpers.ts'
import { reloadApp } from '../routes/writes-tree.ts'

// Two copies of one tree: the same ids, the same store versions, so the same cache keys; in the
// second, event 7 (summer-concert), its venue 4 and its category 2 read otherwise.
let dir: string
let first: Awaited<ReturnType<typeof reloadApp>>
let second: Awaited<ReturnType<typeof reloadApp>>

async function edit(content: string, file: string, from: RegExp, to: string): Promise<void> {
  const path = join(content, file)
  await writeFile(path, (await readFile(path, 'utf8')).replace(from, to))
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'almanac-caches-'))
  for (const name of ['a', 'b']) await cp(join(FIXTURES, 'reference', 'content'), join(dir, name), { recursive: true })
  const b = join(dir, 'b')
  await edit(b, 'events/summer-concert.en.md', /^title: .*$/m, 'title: Winter Recital')
  await edit(b, 'events/summer-concert.en.md', /\n---\n[\s\S]*$/, '\n---\nA **recital** in the cold\n')
  await edit(b, 'venues/town-hall.en.md', /^venue: Town Hall$/m, 'venue: Old Mill')
  await edit(b, 'categories/music.en.md', /^name: Music$/m, 'name: Poetry')
  first = await reloadApp(join(dir, 'a'))
  second = await reloadApp(join(dir, 'b'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const shown = (event: any) => [
  event.title,
  event.venue.venue,
  event.categories.map((term: { name: string }) => term.name).join(),
]

describe('two apps in one process', () => {
  it('each answer event 7 from their own tree, however their requests interleave', async () => {
    expect(first.store.version).toBe(second.store.version)
    for (let round = 0; round < 3; round++) {
      for (const [app, mine] of [
        [first, ['Summer Concert', 'Town Hall', 'Music']],
        [second, ['Winter Recital', 'Old Mill', 'Poetry']],
      ] as const) {
        const single = (await call(app, 'events/7')).body
        expect(shown(single)).toEqual(mine)
        expect(shown((await call(app, 'events')).body.events.find((event: { id: number }) => event.id === 7))).toEqual(
          mine,
        )
        expect(single.description.includes('<strong>recital</strong>')).toBe(app === second)
      }
    }
  })
})

describe('serializer caches', () => {
  it('never answer one app with what another app built, even for the very same record and key', () => {
    const record = { id: 7 } as unknown as ContentRecord
    const [one, other] = [createMemoCache(), createMemoCache()]
    expect(one.shape(record, 'k', 1, () => ({ app: 'one' }))).toEqual({ app: 'one' })
    expect(other.shape(record, 'k', 1, () => ({ app: 'other' }))).toEqual({ app: 'other' })
    expect(one.recent(record, 'k', () => ({ app: 'one' }))).toEqual({ app: 'one' })
    expect(other.recent(record, 'k', () => ({ app: 'other' }))).toEqual({ app: 'other' })
    expect(one.json.keep(record, 'k', 'one').bytes.toString()).toBe('"one"')
    expect(other.json.find(record, 'k')).toBeUndefined()
    expect(other.json.keep(record, 'k', 'other').bytes.toString()).toBe('"other"')
    expect(one.json.find(record, 'k')?.bytes.toString()).toBe('"one"')
    // And a hit is still a hit within one app.
    expect(one.shape(record, 'k', 1, () => ({ app: 'again' }))).toEqual({ app: 'one' })
  })
})

describe('two apps over one store', () => {
  it('each date records in their own site zone, whichever app read them first', async () => {
    const store = (await reloadApp(join(FIXTURES, 'reference', 'content'))).store
    const site = (timezone: string) => ({ ...testSite({ timezone }) })
    const utc = createApp({
      store,
      site: site('UTC'),
      perPage: 9,
      maxPerPage: 50,
      fallback: true,
      now: () => SAMPLE_NOW,
      log: () => {},
    })
    const chicago = createApp({
      store,
      site: site('America/Chicago'),
      perPage: 9,
      maxPerPage: 50,
      fallback: true,
      now: () => SAMPLE_NOW,
      log: () => {},
    })
    // Venue 4 is dated 2026-11-22 02:08:30 in the site's zone.
    expect((await call(utc, 'venues/4')).body.date_utc).toBe('2026-11-22 02:08:30')
    expect((await call(chicago, 'venues/4')).body.date_utc).toBe('2026-11-22 08:08:30')
    expect((await call(utc, 'venues/4')).body.date_utc).toBe('2026-11-22 02:08:30')
  })
})
