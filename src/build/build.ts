import { createHash } from 'node:crypto'
import { copyFile, link, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join, resolve, sep } from 'node:path'
import { createApp } from '../app.ts'
import type { ContentRecord, Store } from '../content/store.ts'
import { KINDS, type Kind } from '../content/kinds.ts'
import { LANGUAGES, type Lang } from '../languages.ts'
import type { Site } from '../serialize/context.ts'
import { changedPages, eventListIds, recordUrls, touchedRecords } from './affected.ts'
import { hostFiles } from './host-files.ts'
import { fileFor, staticUrl, type Layout } from './layout.ts'
import { listUrl, namespaceRoot, publicJobs, type Job, type UrlOptions } from './urls.ts'

export interface BuildOptions {
  store: Store
  site: Site
  /** The output folder; the build writes nowhere else. */
  out: string
  /** The base URL `out` is served from. */
  publicUrl: string
  perPage: number
  maxPerPage: number
  now?: () => number
  onProgress?: (done: number, total: number) => void
}

/** What a build did. */
export interface BuildResult {
  files: number
  bytes: number
  written: number
  removed: number
  ms: number
}

type Change = [ContentRecord | undefined, ContentRecord | undefined]
interface ManifestEntry {
  bytes: number
  sha256: string
}

const MANIFEST = 'manifest.json'
const WRITES_IN_FLIGHT = 64
const BULK = 50

/** The public API as static files: a full build, then updates that re-render only what a change touches. */
export interface SiteBuilder {
  full(): Promise<BuildResult>
  update(changes: Change[]): Promise<BuildResult>
}

/** Renders every public GET into `out` by asking the app for it, so static and live answers cannot disagree. */
export async function buildSite(options: BuildOptions): Promise<BuildResult> {
  return createSiteBuilder(options).full()
}

/**
 * A builder over one store. Links point at the static files; a file is replaced (atomically) only
 * when its content changed, and removed when it is no longer public.
 */
export function createSiteBuilder(options: BuildOptions): SiteBuilder {
  const out = resolve(options.out)
  const layout: Layout = { publicUrl: options.publicUrl.replace(/\/+$/, ''), liveUrl: options.site.url, apiRoot: options.site.apiRoot, defaultLang: options.site.defaultLang, defaultPerPage: options.perPage }
  const urlOptions: UrlOptions = { liveUrl: options.site.url, apiRoot: options.site.apiRoot, defaultLang: options.site.defaultLang, perPage: options.perPage, bulkPerPage: BULK, siteZone: options.site.timezone }
  const clock = options.now ?? Date.now
  // One instant per run, so every list of a build has the same default window.
  let now = clock()
  // An app of its own, without users: every answer is what an anonymous caller gets, public only.
  // Its serializers write the static links themselves, so no answer is parsed or rewritten here.
  const site: Site = { ...options.site, links: { key: `static ${layout.publicUrl}`, map: (url) => staticUrl(layout, url) } }
  const app = createApp({ store: options.store, site, perPage: options.perPage, maxPerPage: options.maxPerPage, fallback: options.store.fallback, now: () => now })
  let manifest = new Map<string, ManifestEntry>()
  const recordFiles = new Map<string, Set<string>>()
  const eventLists = new Map<Lang, number[]>()
  let counts = { written: 0, removed: 0 }

  // Writes go out while the next answers render (awaiting each one left the build idle 40% of the
  // time); a file is written once per run, so writes in flight never touch the same file.
  const inFlight = new Map<string, Promise<void>>()
  const schedule = async (file: string, write: () => Promise<void>) => {
    counts.written++
    const done = write().finally(() => inFlight.delete(file))
    inFlight.set(file, done)
    if (inFlight.size >= WRITES_IN_FLIGHT) await Promise.race(inFlight.values())
  }
  const put = async (file: string, data: Buffer) => {
    const entry = { bytes: data.length, sha256: createHash('sha256').update(data).digest('hex') }
    const same = manifest.get(file)?.sha256 === entry.sha256
    manifest.set(file, entry)
    if (!same) await schedule(file, () => replaceFile(out, file, data))
  }
  /** A file with the same content as one written in this run: a hard link to it where the file system allows. */
  const putSame = async (file: string, source: string) => {
    const entry = manifest.get(source)!
    const same = manifest.get(file)?.sha256 === entry.sha256
    manifest.set(file, entry)
    const written = inFlight.get(source)
    if (!same) await schedule(file, async () => {
      await written
      await replaceByLink(out, file, source)
    })
  }
  const drain = () => Promise.all(inFlight.values())
  const remove = async (file: string) => {
    if (!manifest.delete(file)) return
    await drain()
    await rm(inside(out, file), { force: true })
    counts.removed++
  }
  /** Asks the app for a job's URL and writes its file; an answer that is not 200 (a protected event) has none. */
  const render = async (job: Job): Promise<string | undefined> => {
    const file = fileFor(layout, new URL(job.url))
    if (job.sameAs && rendered.has(job.sameAs)) {
      await putSame(file, fileFor(layout, new URL(job.sameAs)))
    } else {
      const response = await app.fetch(new Request(job.url))
      const data = Buffer.from(await response.arrayBuffer())
      if (response.status !== 200) return undefined
      await put(file, data)
    }
    rendered.add(job.url)
    if (job.record) recordFiles.get(job.record)?.add(file) ?? recordFiles.set(job.record, new Set([file]))
    return file
  }
  // The URLs rendered in this run: a by-slug answer is copied from its by-id answer only when that
  // was rendered in the same run, from the same store (links do not depend on the path asked).
  const rendered = new Set<string>()
  const renderRecord = async (kind: Kind, id: number) => {
    const key = `${kind}/${id}`
    const before = recordFiles.get(key) ?? new Set<string>()
    recordFiles.delete(key)
    for (const job of recordUrls(options.store, kind, id, urlOptions)) await render(job)
    const files = recordFiles.get(key) ?? new Set<string>()
    for (const old of before) if (!files.has(old)) await remove(old)
  }
  const start = () => {
    now = clock()
    rendered.clear()
    return performance.now()
  }
  const finish = async (started: number): Promise<BuildResult> => {
    await drain()
    const files = Object.fromEntries([...manifest].sort(([a], [b]) => (a < b ? -1 : 1)))
    await replaceFile(out, MANIFEST, Buffer.from(`${JSON.stringify({ generated: new Date(now).toISOString(), public_url: layout.publicUrl, files }, null, 1)}\n`))
    const bytes = [...manifest.values()].reduce((sum, entry) => sum + entry.bytes, 0)
    const result = { files: manifest.size, bytes, ...counts, ms: Math.round(performance.now() - started) }
    counts = { written: 0, removed: 0 }
    return result
  }

  return {
    async full() {
      const started = start()
      manifest = new Map(await readManifest(out))
      recordFiles.clear()
      const kept = new Set<string>()
      const jobs = await publicJobs(app, options.store, urlOptions, now)
      for (const [i, job] of jobs.entries()) {
        const file = await render(job)
        if (file) kept.add(file)
        options.onProgress?.(i + 1, jobs.length)
      }
      for (const lang of LANGUAGES) eventLists.set(lang, eventListIds(app, options.store, lang, urlOptions, now))
      for (const media of options.store.media.all()) {
        kept.add(`media/${media.file}`)
        await put(`media/${media.file}`, await readFile(join(options.store.dir, 'media', media.file)))
      }
      for (const [file, content] of Object.entries(hostFiles(options.site))) {
        kept.add(file)
        await put(file, Buffer.from(content))
      }
      for (const file of [...manifest.keys()]) if (!kept.has(file)) await remove(file)
      return finish(started)
    },

    async update(changes) {
      const started = start()
      const touched = touchedRecords(options.store, app, changes)
      const changedEvents = new Set<number>()
      const kinds = new Set<Kind>()
      for (const key of touched) {
        const [kind, id] = key.split('/') as [Kind, string]
        kinds.add(kind)
        if (kind === 'events') changedEvents.add(Number(id))
        await renderRecord(kind, Number(id))
      }
      for (const lang of LANGUAGES) {
        const root = namespaceRoot(urlOptions, lang)
        const before = eventLists.get(lang) ?? []
        const after = eventListIds(app, options.store, lang, urlOptions, now)
        eventLists.set(lang, after)
        for (const size of [options.perPage, BULK]) {
          for (const page of changedPages(before, after, size, changedEvents)) await render({ url: listUrl(`${root}/events`, size, options.perPage, page) })
          await dropPagesBeyond(`${root}/events`, size, Math.max(1, Math.ceil(after.length / size)))
        }
        for (const kind of kinds) {
          if (kind === 'events') continue
          const first = await app.fetch(new Request(`${root}/${kind}`))
          const pages = Math.max(1, Number(first.headers.get('x-tec-totalpages') ?? 1))
          await first.arrayBuffer()
          for (let page = 1; page <= pages; page++) await render({ url: listUrl(`${root}/${kind}`, options.perPage, options.perPage, page) })
          await dropPagesBeyond(`${root}/${kind}`, options.perPage, pages)
        }
      }
      return finish(started)
    },
  }

  /** Removes the files of list pages past the last one, after a list got shorter. */
  async function dropPagesBeyond(list: string, size: number, pages: number) {
    for (let page = pages + 1; ; page++) {
      const file = fileFor(layout, new URL(listUrl(list, size, options.perPage, page)))
      if (!manifest.has(file)) break
      await remove(file)
    }
  }
}

/** Replaces a file by renaming a complete temporary one over it: no reader ever sees half a file. */
async function replaceFile(out: string, file: string, data: Buffer): Promise<void> {
  const target = inside(out, file)
  const temporary = temporaryBeside(target)
  // The folder exists for all but the first file in it: making it only when missing saves a call per file.
  await writeFile(temporary, data).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error
    await mkdir(dirname(target), { recursive: true })
    await writeFile(temporary, data)
  })
  await rename(temporary, target)
}

/**
 * Replaces a file with a hard link to another file of the output (a by-slug answer is its by-id
 * answer): no bytes written twice. Where links are refused (some file systems), a copy.
 */
async function replaceByLink(out: string, file: string, source: string): Promise<void> {
  const target = inside(out, file)
  const temporary = temporaryBeside(target)
  await mkdir(dirname(target), { recursive: true })
  try {
    await link(inside(out, source), temporary)
  } catch {
    await copyFile(inside(out, source), temporary)
  }
  await rename(temporary, target)
}

function temporaryBeside(target: string): string {
  return join(dirname(target), `.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`)
}

/** A path inside the output folder; anything that would escape it is refused. */
function inside(out: string, file: string): string {
  const target = resolve(out, file)
  if (target !== out && !target.startsWith(out + sep)) throw new Error(`refusing to write outside ${out}: ${file}`)
  return target
}

async function readManifest(out: string): Promise<[string, ManifestEntry][]> {
  try {
    const data = JSON.parse(await readFile(join(out, MANIFEST), 'utf8')) as { files?: Record<string, ManifestEntry> }
    return Object.entries(data.files ?? {})
  } catch {
    return []
  }
}
