import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ContentRecord } from '../../src/content/store.ts'
import { buildSite, createSiteBuilder } from '../../src/prerender/site-builder.ts'
import { feedFiles } from './parse.ts'
import { buildOptions, writableApp } from '../helpers.ts'

// Review of issue 15: an incremental build leaves every feed as a fresh build writes it. A feed shows, besides
// its events, their venue, organizers and categories, and a series' changed occurrences: a change to any of
// those must reach every feed that shows it, not only the feed named after it.

const API = 'wp-json/calendar/events/v1'

/** Builds, applies `edit` (files relative to the content folder), updates, and returns the updated and a fresh build's feeds. */
async function afterEdit(edit: Record<string, (text: string) => string>) {
  const app = await writableApp('feeds')
  const out = await mkdtemp(join(tmpdir(), 'almanac-review-build-'))
  const fresh = await mkdtemp(join(tmpdir(), 'almanac-review-fresh-'))
  try {
    const builder = createSiteBuilder(buildOptions(app.store, out))
    await builder.full()
    const changes: [ContentRecord | undefined, ContentRecord | undefined][] = []
    app.store.onChange((was, is) => changes.push([was, is]))
    for (const [path, change] of Object.entries(edit))
      await writeFile(join(app.content, path), change(await readFile(join(app.content, path), 'utf8')))
    await app.store.reload(Object.keys(edit))
    await builder.update(changes.splice(0))
    await buildSite(buildOptions(app.store, fresh))
    return { updated: await feedFiles(out), fresh: await feedFiles(fresh) }
  } finally {
    for (const dir of [out, fresh, app.dir]) await rm(dir, { recursive: true, force: true })
  }
}

describe('an incremental build of the feeds', () => {
  it("writes a renamed venue's new name into the feed of a category whose event is held there", async () => {
    const { updated, fresh } = await afterEdit({
      'venues/hall.en.md': (text) => text.replace('venue: Community Hall, Main Room', 'venue: Town Hall'),
    })
    expect(fresh.get(`${API}/categories/2/events.ics`)).toContain('LOCATION:Town Hall')
    expect(updated.get(`${API}/categories/2/events.ics`)).toBe(fresh.get(`${API}/categories/2/events.ics`))
  })
})
