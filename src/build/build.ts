import { createHash } from 'node:crypto'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join, resolve, sep } from 'node:path'
import { createApp } from '../app.ts'
import type { ContentRecord, Store } from '../content/store.ts'
import { KINDS, type Kind } from '../content/kinds.ts'
import { LANGUAGES, type Lang } from '../languages.ts'
import type { Site } from '../serialize/context.ts'
import { changedPages, eventListIds, recordUrls, touchedRecords } from './affected.ts'
import { hostFiles } from './host-files.ts'
import { fileFor, staticUrl, type Layout } from './layout.ts'
import { namespaceRoot, publicUrls, type UrlOptions } from './urls.ts'

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
 * A builder over one store. Links are rewritten to the static files; a file is replaced (atomically)
 * only when its content changed, and removed when it is no longer public.
 */
export function createSiteBuilder(options: BuildOptions): SiteBuilder {
  const out = resolve(options.out)
  const layout: Layout = { publicUrl: options.publicUrl.replace(/\/+$/, ''), liveUrl: options.site.url, apiRoot: options.site.apiRoot, defaultLang: options.site.defaultLang, defaultPerPage: options.perPage }
  const urlOptions: UrlOptions = { liveUrl: options.site.url, apiRoot: options.site.apiRoot, defaultLang: options.site.defaultLang, perPage: options.perPage, bulkPerPage: BULK }
  const now = options.now ?? Date.now
  // An app of its own, without users: every answer is what an anonymous caller gets, public only.
  const app = createApp({ store: options.store, site: options.site, perPage: options.perPage, maxPerPage: options.maxPerPage, fallback: options.store.fallback, now })
  let manifest = new Map<string, ManifestEntry>()
  const recordFiles = new Map<string, Set<string>>()
  const eventLists = new Map<Lang, number[]>()
  let counts = { written: 0, removed: 0 }

  // Writes go out while the next answers render (awaiting each one left the build idle 40% of the
  // time); a file is written once per run, so writes in flight never touch the same file.
  const inFlight = new Set<Promise<void>>()
  const put = async (file: string, data: Buffer) => {
    const entry = { bytes: data.length, sha256: createHash('sha256').update(data).digest('hex') }
    const same = manifest.get(file)?.sha256 === entry.sha256
    manifest.set(file, entry)
    if (same) return
    counts.written++
    const write = replaceFile(out, file, data).finally(() => inFlight.delete(write))
    inFlight.add(write)
    if (inFlight.size >= WRITES_IN_FLIGHT) await Promise.race(inFlight)
  }
  const drain = () => Promise.all(inFlight)
  const remove = async (file: string) => {
    if (!manifest.delete(file)) return
    await drain()
    await rm(inside(out, file), { force: true })
    counts.removed++
  }
  /** Asks the app for a URL and writes its file; an answer that is not 200 (a protected event) has none. */
  const render = async (url: string, keep?: Map<string, Buffer>): Promise<string | undefined> => {
    const response = await app.fetch(new Request(url))
    const text = await response.text()
    if (response.status !== 200) return undefined
    const file = fileFor(layout, new URL(url))
    const data = Buffer.from(rewriteLinks(layout, text))
    keep?.set(url, data)
    await put(file, data)
    return file
  }
  const langOf = (url: string): Lang => {
    const prefix = /^\/(zh-hans|ms|ta)\//.exec(new URL(url).pathname)
    return (prefix?.[1] as Lang | undefined) ?? options.site.defaultLang
  }
  const kindOf = (url: string): Kind => /\/(events|venues|organizers)\/by-slug\//.exec(url)![1] as Kind
  const renderRecord = async (kind: Kind, id: number) => {
    const files = new Set<string>()
    for (const url of recordUrls(options.store, kind, id, urlOptions)) {
      const file = await render(url)
      if (file) files.add(file)
    }
    for (const old of recordFiles.get(`${kind}/${id}`) ?? []) if (!files.has(old)) await remove(old)
    recordFiles.set(`${kind}/${id}`, files)
  }
  const finish = async (started: number): Promise<BuildResult> => {
    await drain()
    const files = Object.fromEntries([...manifest].sort(([a], [b]) => (a < b ? -1 : 1)))
    await replaceFile(out, MANIFEST, Buffer.from(`${JSON.stringify({ generated: new Date(now()).toISOString(), public_url: layout.publicUrl, files }, null, 1)}\n`))
    const bytes = [...manifest.values()].reduce((sum, entry) => sum + entry.bytes, 0)
    const result = { files: manifest.size, bytes, ...counts, ms: Math.round(performance.now() - started) }
    counts = { written: 0, removed: 0 }
    return result
  }

  return {
    async full() {
      const started = performance.now()
      const previous = await readManifest(out)
      manifest = new Map(previous)
      const kept = new Set<string>()
      const urls = await publicUrls(app, options.store, urlOptions)
      // A by-slug answer is the by-id answer of the same record (links do not depend on the path
      // asked), so it is copied rather than asked for again: about 40% fewer requests.
      // The by-slug URL of a record comes right after its by-id URL: only the last answer is kept.
      const last = new Map<string, Buffer>()
      for (const [i, url] of urls.entries()) {
        const same = /^(.*\/(?:events|venues|organizers))\/by-slug\/[^/]+$/.exec(url)
        const id = same ? options.store.bySlug(kindOf(url), langOf(url), decodeURIComponent(url.split('/').pop()!))?.id : undefined
        const cached = same && id !== undefined ? last.get(`${same[1]}/${id}`) : undefined
        if (!same) last.clear()
        const file = cached ? fileFor(layout, new URL(url)) : await render(url, last)
        if (cached && file) await put(file, cached)
        if (file) kept.add(file)
        options.onProgress?.(i + 1, urls.length)
      }
      for (const kind of KINDS) {
        for (const record of options.store.list(kind)) {
          recordFiles.set(`${kind}/${record.id}`, new Set(recordUrls(options.store, kind, record.id, urlOptions).map((url) => fileFor(layout, new URL(url))).filter((f) => kept.has(f))))
        }
      }
      for (const lang of LANGUAGES) eventLists.set(lang, eventListIds(app, options.store, lang, urlOptions, options.site.timezone, now()))
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
      const started = performance.now()
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
        const after = eventListIds(app, options.store, lang, urlOptions, options.site.timezone, now())
        eventLists.set(lang, after)
        for (const size of [options.perPage, BULK]) {
          const query = size === options.perPage ? '' : `per_page=${size}&`
          for (const page of changedPages(before, after, size, changedEvents)) await render(`${root}/events?${query}page=${page}`)
          await dropPagesBeyond(`${root}/events`, size, Math.max(1, Math.ceil(after.length / size)))
        }
        for (const kind of kinds) {
          if (kind === 'events') continue
          const first = await app.fetch(new Request(`${root}/${kind}`))
          const pages = Math.max(1, Number(first.headers.get('x-tec-totalpages') ?? 1))
          await first.arrayBuffer()
          for (let page = 1; page <= pages; page++) await render(`${root}/${kind}?page=${page}`)
          await dropPagesBeyond(`${root}/${kind}`, options.perPage, pages)
        }
      }
      return finish(started)
    },
  }

  /** Removes the files of list pages past the last one, after a list got shorter. */
  async function dropPagesBeyond(list: string, size: number, pages: number) {
    const query = size === options.perPage ? '' : `per_page=${size}&`
    for (let page = pages + 1; ; page++) {
      const file = fileFor(layout, new URL(`${list}?${query}page=${page}`))
      if (!manifest.has(file)) break
      await remove(file)
    }
  }
}

/** Links into the live API become links to the static files, in the JSON text itself. */
function rewriteLinks(layout: Layout, text: string): string {
  const live = `${layout.liveUrl}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const pattern = new RegExp(`"(${live}(?:/(?:zh-hans|en|ms|ta))?${layout.apiRoot}/calendar/events/v1(?:[/?][^"]*)?)"`, 'g')
  return text.replace(pattern, (_, url: string) => JSON.stringify(staticUrl(layout, url)))
}

/** Replaces a file by renaming a complete temporary one over it: no reader ever sees half a file. */
async function replaceFile(out: string, file: string, data: Buffer): Promise<void> {
  const target = inside(out, file)
  await mkdir(dirname(target), { recursive: true })
  const temporary = join(dirname(target), `.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`)
  await writeFile(temporary, data)
  await rename(temporary, target)
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
