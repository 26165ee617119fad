import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { buildSite } from '../../src/prerender/site-builder.ts'
import { answer } from '../../src/cli/preview.ts'
import { readHostRules } from '../../src/cli/static-host.ts'
import { fixtureApp, SAMPLE_NOW, testSite } from '../helpers.ts'

export const PUBLIC = 'https://cdn.example.org'

/** The reference tree built into a temporary dist/ and served by preview's handler, for one test file. */
export interface Previewed {
  out: string
  host: string
}

/**
 * Builds the reference tree once for the file's tests and serves it as `almanac preview` would
 * (with the `_headers` and `_redirects` the build wrote); `prepare` may add files to dist/ first.
 */
export function usePreviewedBuild(prepare: (out: string) => Promise<void> = async () => {}): Previewed {
  const previewed = { out: '', host: '' }
  const server = createServer()
  beforeAll(async () => {
    const app = await fixtureApp('reference')
    previewed.out = await mkdtemp(join(tmpdir(), 'almanac-preview-'))
    const site = { store: app.store, site: testSite(), out: previewed.out, publicUrl: PUBLIC }
    await buildSite({ ...site, perPage: 9, maxPerPage: 50, now: () => SAMPLE_NOW, workers: 0 })
    await prepare(previewed.out)
    const rules = await readHostRules(previewed.out)
    server.on('request', (req, res) => void answer(previewed.out, req, res, rules))
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    previewed.host = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  })
  afterAll(async () => {
    await new Promise((done) => server.close(done))
    await rm(previewed.out, { recursive: true, force: true })
  })
  return previewed
}
