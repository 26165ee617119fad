import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'vitest'
import { createStore } from '../../src/content/store.ts'
import { rebuildOnChange } from '../../src/prerender/rebuild-on-change.ts'
import { buildSite, createSiteBuilder } from '../../src/prerender/site-builder.ts'
import type { BuildResult } from '../../src/prerender/build-options.ts'
import { SAMPLE_NOW, testSite, writableApp } from '../helpers.ts'

// A built site kept current the way `serve --build` and `build --watch` keep it (rebuildOnChange), over a writable
// copy of a fixture, and its comparison with a fresh full build of the same tree from a fresh store.

/** Every file under `dir` but the manifest, path → bytes as base64. */
export async function builtFiles(dir: string, prefix = ''): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const entry of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const path = join(prefix, entry.name)
    if (entry.isDirectory()) Object.assign(out, await builtFiles(dir, path))
    else if (path !== 'manifest.json') out[path] = (await readFile(join(dir, path))).toString('base64')
  }
  return out
}

/** The files two builds disagree on: missing from the first, left in it, or with other bytes. */
function differences(followed: Record<string, string>, fresh: Record<string, string>): string[] {
  const keys = new Set([...Object.keys(followed), ...Object.keys(fresh)])
  return [...keys]
    .filter((key) => followed[key] !== fresh[key])
    .map((key) => `${!(key in followed) ? 'missing' : !(key in fresh) ? 'left over' : 'differs'}: ${key}`)
    .sort()
}

export async function followedSite(fixture: string, perPage = 2) {
  const app = await writableApp(fixture)
  const [out, fresh] = [
    await mkdtemp(join(tmpdir(), 'almanac-followed-')),
    await mkdtemp(join(tmpdir(), 'almanac-fresh-')),
  ]
  const options = {
    site: testSite(),
    publicUrl: 'https://cdn.example.org',
    perPage,
    maxPerPage: 50,
    now: () => SAMPLE_NOW,
    workers: 0,
  }
  const builder = createSiteBuilder({ ...options, store: app.store, out })
  await builder.full()
  const errors: Error[] = []
  const results: BuildResult[] = []
  const stop = rebuildOnChange(
    app.store,
    builder,
    (result) => results.push(result),
    (error) => errors.push(error),
  )
  return {
    app,
    out,
    /** What each run after the first full build did, in order (a full build's result names its by-slug pages). */
    results,
    /** Waits for every change heard to be built: changes a step apart are then built apart. */
    settled: () => stop.idle(),
    /** Differences between the followed site, once every change heard is built, and a fresh full build. */
    async differences() {
      await stop.idle()
      expect(errors).toEqual([])
      await rm(fresh, { recursive: true, force: true })
      const store = await createStore(app.content, {
        defaultLanguage: 'en',
        fallback: true,
        timezone: 'UTC',
        now: () => SAMPLE_NOW,
      })
      await buildSite({ ...options, store, out: fresh })
      return differences(await builtFiles(out), await builtFiles(fresh))
    },
    async cleanup() {
      await stop()
      for (const dir of [out, fresh, app.dir]) await rm(dir, { recursive: true, force: true })
    },
  }
}
