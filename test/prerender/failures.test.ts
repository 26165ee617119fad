import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createSiteBuilder, type BuildResult, type SiteBuilder } from '../../src/prerender/site-builder.ts'
import { rebuildOnChange } from '../../src/prerender/rebuild-on-change.ts'
import { as, call, json, writableApp, buildOptions } from '../helpers.ts'

const EVENT_8 = 'wp-json/calendar/events/v1/events/8.json'
let app: Awaited<ReturnType<typeof writableApp>>
let out: string
let builder: SiteBuilder

beforeEach(async () => {
  app = await writableApp('reference')
  out = await mkdtemp(join(tmpdir(), 'almanac-fail-'))
  builder = createSiteBuilder(buildOptions(app.store, out))
  await builder.full()
})
afterEach(async () => {
  await rm(out, { recursive: true, force: true })
  await rm(app.dir, { recursive: true, force: true })
})

async function allFiles(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
}
const manifest = async () =>
  JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8')).files as Record<string, { bytes: number }>

describe('a build over an output folder that is not what its manifest says', () => {
  it('writes again a file deleted by hand, though the manifest still lists it', async () => {
    await rm(join(out, EVENT_8))
    const again = await builder.full()
    expect(again.written).toBe(1)
    expect((await stat(join(out, EVENT_8))).size).toBe((await manifest())[EVENT_8]!.bytes)
  })

  it('removes temporary files an interrupted build left behind', async () => {
    const stray = join(out, 'wp-json/calendar/events/v1/events/.4242.1.k3j2h1.tmp')
    await writeFile(stray, '{"half": ')
    await builder.full()
    expect(await allFiles(out)).not.toContain(stray.slice(out.length + 1))
  })

  it('stops before it writes when a folder inside it is a link, and writes nothing where the link points', async () => {
    const elsewhere = await mkdtemp(join(tmpdir(), 'almanac-elsewhere-'))
    try {
      const events = join(out, 'wp-json/calendar/events/v1/events')
      await rm(events, { recursive: true })
      await symlink(elsewhere, events)
      await rm(join(out, 'manifest.json'))
      await expect(builder.full()).rejects.toThrow(`${events} is a symbolic link; a build writes only into folders`)
      expect(await readdir(elsewhere)).toEqual([])
      expect(await allFiles(out)).not.toContain('manifest.json')
    } finally {
      await rm(elsewhere, { recursive: true, force: true })
    }
  })

  it('stops when a file it wrote was replaced by a link of the same size, rather than publish what it points to', async () => {
    const secret = join(out, '..', `almanac-secret-${process.pid}`)
    const file = join(out, EVENT_8)
    await writeFile(secret, 'S'.repeat((await stat(file)).size))
    try {
      await rm(file)
      await symlink(secret, file)
      await expect(builder.full()).rejects.toThrow(`${file} is a symbolic link`)
    } finally {
      await rm(secret, { force: true })
    }
  })

  it('refuses a link made after it began: an update writes nothing through it', async () => {
    const elsewhere = await mkdtemp(join(tmpdir(), 'almanac-elsewhere-'))
    const errors: Error[] = []
    const stop = rebuildOnChange(
      app.store,
      builder,
      () => {},
      (error) => errors.push(error),
    )
    try {
      const events = join(out, 'wp-json/calendar/events/v1/events')
      await rm(events, { recursive: true })
      await symlink(elsewhere, events)
      await call(app, 'events/8', json('PATCH', { title: 'Written Through A Link?' }, as('admin')))
      await expect.poll(() => errors.length, { timeout: 5_000 }).toBe(1)
      expect(errors[0]!.message).toContain(`${events} is a symbolic link`)
      expect(await readdir(elsewhere)).toEqual([])
    } finally {
      await stop()
      await rm(elsewhere, { recursive: true, force: true })
    }
  })

  it('builds into an output folder that is itself a link', async () => {
    const link = `${out}-link`
    await symlink(out, link)
    try {
      await rm(join(out, EVENT_8))
      const again = await createSiteBuilder(buildOptions(app.store, link)).full()
      expect(again.written).toBe(1)
      expect((await stat(join(out, EVENT_8))).isFile()).toBe(true)
    } finally {
      await rm(link, { force: true })
    }
  })

  it('after a write that failed, claims nothing it did not write, and the next run puts it right', async () => {
    const results: BuildResult[] = []
    const errors: Error[] = []
    const stop = rebuildOnChange(
      app.store,
      builder,
      (result) => results.push(result),
      (error) => errors.push(error),
    )
    // A folder where event 8's file goes: the write of its new answer fails.
    await rm(join(out, EVENT_8))
    await mkdir(join(out, EVENT_8, 'blocker'), { recursive: true })
    await call(app, 'events/8', json('PATCH', { title: 'Renamed While Broken' }, as('admin')))
    await expect.poll(() => errors.length, { timeout: 5_000 }).toBe(1)
    expect((await allFiles(out)).filter((file) => file.endsWith('.tmp'))).toEqual([])
    // Fixed by hand; the next change is built in full, and event 8 is written with its new title.
    await rm(join(out, EVENT_8), { recursive: true })
    await call(app, 'events/7', json('PATCH', { title: 'Another Change' }, as('admin')))
    await expect.poll(() => results.length, { timeout: 10_000 }).toBe(1)
    await stop()
    expect(JSON.parse(await readFile(join(out, EVENT_8), 'utf8')).title).toBe('Renamed While Broken')
    const files = await manifest()
    for (const [file, entry] of Object.entries(files))
      expect((await stat(join(out, file))).size, file).toBe(entry.bytes)
  })
})
