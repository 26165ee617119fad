import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildSite, createSiteBuilder } from '../../src/prerender/site-builder.ts'
import type { ContentRecord } from '../../src/content/store.ts'
import { as, call, json, SAMPLE_NOW, testSite, writableApp } from '../helpers.ts'
import { builtFiles as tree } from './followed-harness.ts'

describe('updating a built site', () => {
  it.each([
    ['by default', {}],
    ['with the per_page=50 copies', { widePages: true }],
    ['in some languages only, with the per_page=50 copies', { widePages: true, languages: ['en', 'ms'] as const }],
    ['without the by-slug files', { slugPages: false }],
    ['with the by-slug files left out to fit the host', { hostLimitBytes: 1 }],
  ])('re-renders only what changes touch, and ends equal to a fresh full build (%s)', async (_, switches) => {
    const app = await writableApp('reference')
    const [incremental, fresh] = [
      await mkdtemp(join(tmpdir(), 'almanac-inc-')),
      await mkdtemp(join(tmpdir(), 'almanac-full-')),
    ]
    const options = {
      store: app.store,
      site: testSite(),
      publicUrl: 'https://cdn.example.org',
      perPage: 2,
      maxPerPage: 50,
      now: () => SAMPLE_NOW,
      ...switches,
    }
    try {
      const builder = createSiteBuilder({ ...options, out: incremental })
      const first = await builder.full()
      const changes: [ContentRecord | undefined, ContentRecord | undefined][] = []
      app.store.onChange((before, after) => changes.push([before, after]))
      const steps = [
        () => call(app, 'events/8', json('PATCH', { title: 'Meetup Renamed', slug: 'meetup-renamed' }, as('admin'))),
        () =>
          call(
            app,
            'events',
            json(
              'POST',
              {
                title: 'Late Addition',
                start_date: '2026-11-28 10:00:00',
                end_date: '2026-11-28 11:00:00',
                tags: ['Brand New Tag'],
              },
              as('admin'),
            ),
          ),
        () => call(app, 'venues/4', json('PATCH', { city: 'Capital City' }, as('admin'))),
        () => call(app, 'events/9', { method: 'DELETE', headers: as('admin') }),
        () => call(app, 'categories/2', json('PATCH', { name: 'Live Music' }, as('admin'))),
        () => call(app, 'events/7?ml_language=ms', json('PATCH', { title: 'Konsert Baharu' }, as('admin'))),
      ]
      let written = 0
      for (const step of steps) {
        expect((await step()).status).toBeLessThan(300)
        const result = await builder.update(changes.splice(0))
        written += result.written
      }
      expect(written).toBeGreaterThan(0)
      expect(written).toBeLessThan(first.files * steps.length)
      await buildSite({ ...options, out: fresh })
      expect(await tree(incremental)).toEqual(await tree(fresh))
    } finally {
      await rm(incremental, { recursive: true, force: true })
      await rm(fresh, { recursive: true, force: true })
      await rm(app.dir, { recursive: true, force: true })
    }
  })
})
