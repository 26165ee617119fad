import { readdir, unlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildSite } from '../../src/prerender/site-builder.ts'
import { checkContent } from '../../src/content/check.ts'
import { call, buildOptions, testApp } from '../helpers.ts'
import { dupSlug, MS_TWIN, served, servedWithErrors } from './slug-clash-trees.ts'
import { eventFile, loadStore, tempTree } from './trees.ts'

let tree: Awaited<ReturnType<typeof tempTree>>
beforeEach(async () => (tree = await tempTree('reference')))
afterEach(() => tree.cleanup())

const put = (name: string, text: string) => writeFile(join(tree.content, 'events', name), text)
async function start() {
  const { store } = await loadStore(tree.content)
  const app = testApp(store)
  return { store, app }
}
const blamedByCheck = async (text: string) =>
  (await checkContent(tree.content, false)).problems.filter((p) => p.message.includes(text)).map((p) => p.path)

describe('a file that loses a slug clash, at start-up', () => {
  it('is left out when it is a source: its record is not served, and the slug leads to the record that keeps it', async () => {
    await put('zzz-dupslug.en.md', dupSlug(9100, 'Zzz Dup'))
    const { app } = await start()
    expect((await call(app, 'events/9100')).status).toBe(404)
    expect((await call(app, 'events/by-slug/plain-meetup')).body.id).toBe(8)
    expect((await call(app, 'events')).body.events.map((e: { id: number }) => e.id)).not.toContain(9100)
    expect(await blamedByCheck('slug "plain-meetup"')).toEqual(['events/zzz-dupslug.en.md'])
  })

  it('takes the slug from a record whose file comes later in path order, which is then left out', async () => {
    await put('a-first.en.md', dupSlug(9102, 'A First'))
    const { app } = await start()
    expect((await call(app, 'events/by-slug/plain-meetup')).body.id).toBe(9102)
    expect((await call(app, 'events/8')).status).toBe(404)
    expect(await blamedByCheck('slug "plain-meetup"')).toEqual(['events/plain-meetup.en.md'])
  })

  it('is left out when it is a translation: that language falls back to the source, as if the file were not there', async () => {
    await put('zzz-twin.en.md', eventFile(9101, 'Zzz Twin'))
    await put('zzz-twin.ms.md', MS_TWIN)
    const { app } = await start()
    const ms = (await call(app, '/ms/wp-json/calendar/events/v1/events/9101')).body
    expect([ms.title, ms.slug]).toEqual(['Zzz Twin', 'zzz-twin'])
    expect((await call(app, '/ms/wp-json/calendar/events/v1/events/by-slug/konsert-musim-panas')).body.id).toBe(7)
    expect(await blamedByCheck('slug "konsert-musim-panas"')).toEqual(['events/zzz-twin.ms.md'])
  })

  it('is served once the file that kept the slug is deleted, the same as a restart serves it', async () => {
    await put('zzz-dupslug.en.md', dupSlug(9100, 'Zzz Dup'))
    await put('zzz-twin.en.md', eventFile(9101, 'Zzz Twin'))
    await put('zzz-twin.ms.md', MS_TWIN)
    const { store } = await start()
    expect(servedWithErrors(store)).toEqual([])
    await unlink(join(tree.content, 'events/plain-meetup.en.md'))
    await store.reload(['events/plain-meetup.en.md'])
    expect(store.get('events', 9100)?.source.data.slug).toBe('plain-meetup')
    expect(servedWithErrors(store)).toEqual([])
    expect(served(store)).toEqual(served((await loadStore(tree.content)).store))
  })

  it('is left out of the static build the same way', async () => {
    await put('zzz-dupslug.en.md', dupSlug(9100, 'Zzz Dup'))
    const { store } = await start()
    const out = join(tree.dir, 'dist')
    await buildSite(buildOptions(store, out))
    const events = await readdir(join(out, 'wp-json/calendar/events/v1/events'))
    expect(events).toContain('8.json')
    expect(events).not.toContain('9100.json')
  })
})

describe('the slug index', () => {
  it('keeps each kind apart: an event and a venue with one slug are each found by it', async () => {
    // The reference tree's venue 4 is slugged town-hall.
    await put('town-hall.en.md', eventFile(9200, 'Town Hall'))
    const { app } = await start()
    expect((await call(app, 'events/by-slug/town-hall')).body.id).toBe(9200)
    expect((await call(app, 'venues/by-slug/town-hall')).body.id).toBe(4)
  })

  it('leaves a slug with its holder when a record that fell back to it in that language goes', async () => {
    // Malay: aa-first.ms.md names shared-x; zz-second has no Malay file and falls back to its English shared-x, a
    // clash it loses (aa-first comes first in path order). Deleting zz-second must not take shared-x from aa-first.
    await put('aa-first.en.md', eventFile(9300, 'Q Event'))
    await put('aa-first.ms.md', '---\ntitle: Acara\nslug: shared-x\n---\nAcara.\n')
    await put('zz-second.en.md', eventFile(9301, 'Shared X'))
    const { store, app } = await start()
    const malay = () => call(app, '/ms/wp-json/calendar/events/v1/events/by-slug/shared-x')
    expect((await malay()).body.id).toBe(9300)
    expect((await call(app, 'events/by-slug/shared-x')).body.id).toBe(9301)
    await unlink(join(tree.content, 'events/zz-second.en.md'))
    await store.reload(['events/zz-second.en.md'])
    expect((await malay()).body.id).toBe(9300)
    // As the reference answers an unknown slug: 400.
    expect((await call(app, 'events/by-slug/shared-x')).status).toBe(400)
  })
})
