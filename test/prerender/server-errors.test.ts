import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { App } from '../../src/app.ts'
import type { Layout } from '../../src/prerender/file-layout.ts'
import { Manifest } from '../../src/prerender/manifest.ts'
import { createOutput } from '../../src/prerender/output-files.ts'
import { createBuildApp, createRenderer } from '../../src/prerender/renderer.ts'
import { fixtureApp, SAMPLE_NOW, testSite } from '../helpers.ts'

const LIVE = 'http://127.0.0.1:8089'
const layout: Layout = {
  publicUrl: 'https://cdn.example.org',
  liveUrl: LIVE,
  apiRoot: '/wp-json',
  defaultLang: 'en',
  defaultPerPage: 9,
}
let out: string | undefined
afterEach(async () => {
  if (out) await rm(out, { recursive: true, force: true })
})

/** The build's real app, except that one URL answers as a failing server does. */
async function appFailingAt(failing: string): Promise<App> {
  const { store } = await fixtureApp('reference')
  const app = createBuildApp(store, { site: testSite(), perPage: 9, maxPerPage: 50 }, layout, () => SAMPLE_NOW)
  return {
    ...app,
    fetch: (request) =>
      request.url === failing
        ? Promise.resolve(
            Response.json(
              {
                code: 'internal_server_error',
                message: 'The server could not answer this request.',
                data: { status: 500 },
              },
              { status: 500 },
            ),
          )
        : app.fetch(request),
  }
}

describe('a build that meets a server error', () => {
  it('fails, naming the URL that answered 5xx, instead of leaving its file out', async () => {
    const failing = `${LIVE}/wp-json/calendar/events/v1/events`
    out = await mkdtemp(join(tmpdir(), 'almanac-5xx-'))
    const renderer = createRenderer(await appFailingAt(failing), layout, createOutput(out, new Manifest(), true))
    await expect(
      renderer.render({ url: `${LIVE}/wp-json/calendar/events/v1/events/7`, record: 'events/7' }),
    ).resolves.toBeTypeOf('string')
    await expect(renderer.render({ url: failing })).rejects.toThrow(`${failing} answered 500`)
  })

  it('still leaves out a record that answers 4xx (a protected or unpublished one)', async () => {
    out = await mkdtemp(join(tmpdir(), 'almanac-5xx-'))
    const renderer = createRenderer(await appFailingAt('none'), layout, createOutput(out, new Manifest(), true))
    await expect(renderer.render({ url: `${LIVE}/wp-json/calendar/events/v1/events/999999` })).resolves.toBeUndefined()
  })
})
