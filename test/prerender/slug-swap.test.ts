import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ContentRecord } from '../../src/content/store.ts'
import { buildSite, createSiteBuilder } from '../../src/prerender/site-builder.ts'
import { buildOptions, filesUnder, writableApp } from '../helpers.ts'

async function snapshot(dir: string) {
  const out = new Map<string, string>()
  for (const f of await filesUnder(dir)) if (f !== 'manifest.json') out.set(f, await readFile(join(dir, f), 'utf8'))
  return out
}

// Found by review: event 8 takes the slug event 11 gives up, in one update. Whichever the store reports first,
// the by-slug files of that slug must end as a fresh build's (before, the later record removed what the first wrote).

describe('an update in which one record takes the slug another gives up ends as a fresh build', () => {
  for (const order of [
    ['plain-meetup', 'gala-five'],
    ['gala-five', 'plain-meetup'],
  ]) {
    it(order.join(' then '), async () => {
      const app = await writableApp('reference')
      const out = await mkdtemp(join(tmpdir(), 'almanac-swap-'))
      const fresh = await mkdtemp(join(tmpdir(), 'almanac-swap-fresh-'))
      try {
        const builder = createSiteBuilder(buildOptions(app.store, out))
        await builder.full()
        const changes: [ContentRecord | undefined, ContentRecord | undefined][] = []
        app.store.onChange((was, is) => changes.push([was, is]))
        const edit = async (name: string, from: string, to: string) => {
          const p = join(app.content, `events/${name}.en.md`)
          await writeFile(p, (await readFile(p, 'utf8')).replace(`slug: ${from}`, `slug: ${to}`))
        }
        await edit('gala-five', 'gala-five', 'gala-renamed')
        await edit('plain-meetup', 'plain-meetup', 'gala-five')
        await app.store.reload(order.map((n) => `events/${n}.en.md`))
        await builder.update(changes.splice(0))
        await buildSite(buildOptions(app.store, fresh))
        const a = await snapshot(out)
        const b = await snapshot(fresh)
        expect([...a.keys()].filter((k) => !b.has(k))).toEqual([])
        expect([...b.keys()].filter((k) => !a.has(k))).toEqual([])
        for (const [k, v] of b) expect(a.get(k), k).toBe(v)
      } finally {
        await rm(out, { recursive: true, force: true })
        await rm(fresh, { recursive: true, force: true })
        await rm(app.dir, { recursive: true, force: true })
      }
    })
  }
})
