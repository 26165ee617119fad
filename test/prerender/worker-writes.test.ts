import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Manifest } from '../../src/prerender/manifest.ts'
import { workersFor } from '../../src/prerender/render-pool.ts'
import { buildUrls, publicJobs } from '../../src/prerender/public-urls.ts'
import { createBuildApp } from '../../src/prerender/renderer.ts'
import { buildOptions, SAMPLE_NOW, writableApp } from '../helpers.ts'

// A render worker writes its files asynchronously: a batch is answered only once its files have landed, so what it
// reports is on disk, and a file it could not write fails the batch (never a file the manifest claims and lacks).

const EVENTS = 'wp-json/calendar/events/v1/events'
let app: Awaited<ReturnType<typeof writableApp>>
let dir: string

beforeAll(async () => {
  app = await writableApp('reference')
  dir = await mkdtemp(join(tmpdir(), 'almanac-worker-writes-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
  await rm(app.dir, { recursive: true, force: true })
})

/** Every public job of the reference site, rendered by one worker alone into `out`. */
async function renderInWorker(out: string, fresh: boolean) {
  const options = buildOptions(app.store, out)
  const { layout, urlOptions } = buildUrls(options)
  const buildApp = createBuildApp(app.store, options, layout, () => SAMPLE_NOW)
  const jobs = (await publicJobs(buildApp, app.store, urlOptions, SAMPLE_NOW)).filter((job) => !job.sameAs)
  const languages = urlOptions.languages!
  const pool = workersFor({ ...options, layout, out, now: SAMPLE_NOW, languages, workers: 1 }, new Manifest(), fresh)!
  try {
    return await pool.render(jobs)
  } finally {
    await pool.close()
  }
}

describe('a render worker', () => {
  it('answers a batch only once every file it names is on disk with the bytes it reports', async () => {
    const out = join(dir, 'whole')
    const { results } = await renderInWorker(out, true)
    const files = results.filter((result) => result !== null)
    expect(files.length).toBeGreaterThan(50)
    for (const [file, entry] of files) expect((await stat(join(out, file))).size, file).toBe(entry.bytes)
  })

  it('fails its batch when a file cannot be written, naming why', async () => {
    const out = join(dir, 'blocked')
    // A folder (not empty) where every event's file goes: no write of one can land.
    for (const name of await readdir(join(dir, 'whole', EVENTS)))
      if (name.endsWith('.json')) await mkdir(join(out, EVENTS, name, 'blocker'), { recursive: true })
    await expect(renderInWorker(out, false)).rejects.toThrow(/EISDIR|ENOTEMPTY|EEXIST|ENOTDIR|EPERM/)
  })
})
