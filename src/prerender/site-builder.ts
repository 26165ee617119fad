import { availableParallelism } from 'node:os'
import { join, resolve } from 'node:path'
import { readMediaFile } from '../content/store/media.ts'
import type { ContentRecord, Store } from '../content/store.ts'
import { KINDS, type Kind } from '../content/model/kinds.ts'
import { LANGUAGES, type Lang } from '../languages.ts'
import type { Site } from '../context/site.ts'
import { changedPages, eventListIds, recordUrls, touchedRecords } from './affected-pages.ts'
import { hostFiles } from './host-files.ts'
import { fileFor, type Layout } from './file-layout.ts'
import { Manifest, readManifest } from './manifest.ts'
import { createOutput, sweepTemporaries, writeManifest, type Output } from './output-files.ts'
import { startPool, type Pool, type Rendered } from './render-pool.ts'
import { createBuildApp, createRenderer, failOnServerError } from './renderer.ts'
import { listUrl, namespaceRoot, publicJobs, type Job, type UrlOptions, widePageSize } from './public-urls.ts'
import { trimEndOf } from '../text.ts'

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
  /**
   * Worker threads a full build renders in (default: one per core, at most 4, none for a small
   * site; 0 renders on this thread). Each loads its own copy of the tree. Updates render on this thread.
   */
  workers?: number
  /** Event list pages also at `per_page=50`, for bulk consumers (default: not written). */
  widePages?: boolean
  /** The languages written (default: all); the others have no files. */
  languages?: readonly Lang[]
  /** Records also by slug (default: yes). A host stores each as a full copy of the by-id file. */
  slugPages?: boolean
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

const MAX_WORKERS = 4
const PAGES_PER_WORKER = 4000

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
  const { store } = options
  const out = resolve(options.out)
  const wide = options.widePages ? widePageSize(options.perPage, options.maxPerPage) : undefined
  const layout: Layout = {
    publicUrl: trimEndOf(options.publicUrl, '/'),
    liveUrl: options.site.url,
    apiRoot: options.site.apiRoot,
    defaultLang: options.site.defaultLang,
    defaultPerPage: options.perPage,
    languages: options.languages,
  }
  const languages = options.languages ?? LANGUAGES
  const urlOptions: UrlOptions = {
    liveUrl: options.site.url,
    apiRoot: options.site.apiRoot,
    defaultLang: options.site.defaultLang,
    perPage: options.perPage,
    bulkPerPage: wide,
    languages,
    slugPages: options.slugPages,
  }
  const listSizes = wide ? [options.perPage, wide] : [options.perPage]
  const clock = options.now ?? Date.now
  // One instant per run, so every list of a build has the same default window.
  let now = clock()
  const app = createBuildApp(store, options, layout, () => now)
  let output: Output = createOutput(out, new Manifest(), false)
  let renderer = createRenderer(app, layout, output)
  const recordFiles = new Map<string, Set<string>>()
  const eventLists = new Map<Lang, number[]>()

  const render = async (job: Job) => {
    const file = await renderer.render(job)
    if (file) noteFile(job, file)
    return file
  }
  const noteFile = (job: Job, file: string) => {
    if (job.record) recordFiles.get(job.record)?.add(file) ?? recordFiles.set(job.record, new Set([file]))
  }
  const renderRecord = async (kind: Kind, id: number) => {
    const key = `${kind}/${id}`
    const before = recordFiles.get(key) ?? new Set<string>()
    recordFiles.delete(key)
    for (const job of recordUrls(store, kind, id, urlOptions)) await render(job)
    const files = recordFiles.get(key) ?? new Set<string>()
    for (const old of before) if (!files.has(old)) await output.remove(old)
  }
  /**
   * Worker threads for a full build, started before its jobs are known so they load meanwhile. A
   * worker reads the tree from disk; a store that kept the last good version of a broken file would
   * answer otherwise, so then the build renders here.
   */
  const startWorkers = (previous: Manifest): Pool | undefined => {
    // A worker costs a second or two to start (loader, tree): small sites render here unless told otherwise.
    const pages = KINDS.reduce((sum, kind) => sum + store.list(kind).length, 0) * languages.length
    const count = options.workers ?? Math.min(availableParallelism(), MAX_WORKERS, Math.floor(pages / PAGES_PER_WORKER))
    if (count < 1 || store.problems().some((p) => p.severity !== 'warning')) return undefined
    const { site, perPage, maxPerPage } = options
    const { dir, defaultLanguage, fallback } = store
    return startPool(
      { dir, defaultLanguage, fallback, site, perPage, maxPerPage, layout, out, now, previous: [...previous] },
      count,
    )
  }
  const renderHere = async (jobs: Job[]): Promise<Rendered> => {
    const results: Rendered['results'] = []
    for (const [i, job] of jobs.entries()) {
      const file = await renderer.render(job)
      results.push(file ? [file, output.manifest.get(file)!] : null)
      options.onProgress?.(i + 1, jobs.length)
    }
    return { results, written: 0 }
  }
  const start = () => {
    now = clock()
    renderer.reset()
    return performance.now()
  }
  const finish = async (started: number, also = 0): Promise<BuildResult> => {
    await output.drain()
    const { manifest } = output
    await writeManifest(out, manifest, { generated: new Date(now).toISOString(), public_url: layout.publicUrl })
    const bytes = [...manifest.values()].reduce((sum, entry) => sum + entry.bytes, 0)
    const { written, removed } = output.take()
    return {
      files: manifest.size,
      bytes,
      written: written + also,
      removed,
      ms: Math.round(performance.now() - started),
    }
  }

  return {
    async full() {
      const started = start()
      const [previous] = await Promise.all([readManifest(out), sweepTemporaries(out)])
      output = createOutput(out, new Manifest(previous), false)
      renderer = createRenderer(app, layout, output)
      recordFiles.clear()
      const pool = startWorkers(previous)
      let jobs: Job[] = []
      let rendered: Rendered
      try {
        jobs = await publicJobs(app, store, urlOptions, now)
        const progress = (done: number) => options.onProgress?.(done, jobs.length)
        rendered = pool ? await pool.render(jobs, progress) : await renderHere(jobs)
      } finally {
        await pool?.close()
      }
      const kept = new Set<string>()
      rendered.results.forEach((result, i) => {
        if (!result) return
        output.manifest.set(...result)
        kept.add(result[0])
        noteFile(jobs[i]!, result[0])
      })
      for (const lang of languages) eventLists.set(lang, eventListIds(app, lang, now))
      for (const media of store.media.all()) {
        // Only regular files inside media/: a file swapped for a link since loading is left out.
        const bytes = await readMediaFile(join(store.dir, 'media'), media.file)
        if (!bytes) continue
        kept.add(`media/${media.file}`)
        await output.put(`media/${media.file}`, bytes)
      }
      for (const [file, content] of Object.entries(hostFiles(options.site, layout.publicUrl))) {
        kept.add(file)
        await output.put(file, Buffer.from(content))
      }
      for (const file of [...output.manifest.keys()]) if (!kept.has(file)) await output.remove(file)
      return finish(started, rendered.written)
    },

    async update(changes) {
      const started = start()
      const touched = touchedRecords(store, app, changes)
      const changedEvents = new Set<number>()
      const kinds = new Set<Kind>()
      for (const key of touched) {
        const [kind, id] = key.split('/') as [Kind, string]
        kinds.add(kind)
        if (kind === 'events') changedEvents.add(Number(id))
        await renderRecord(kind, Number(id))
      }
      for (const lang of languages) {
        const root = namespaceRoot(urlOptions, lang)
        const before = eventLists.get(lang) ?? []
        const after = eventListIds(app, lang, now)
        eventLists.set(lang, after)
        for (const size of listSizes) {
          for (const page of changedPages(before, after, size, changedEvents))
            await render({ url: listUrl(`${root}/events`, size, options.perPage, page) })
          await dropPagesBeyond(`${root}/events`, size, Math.max(1, Math.ceil(after.length / size)))
        }
        for (const kind of kinds) {
          if (kind === 'events') continue
          const first = await app.fetch(new Request(`${root}/${kind}`))
          const pages = Math.max(1, Number(first.headers.get('x-tec-totalpages') ?? 1))
          await failOnServerError(`${root}/${kind}`, first)
          for (let page = 1; page <= pages; page++)
            await render({ url: listUrl(`${root}/${kind}`, options.perPage, options.perPage, page) })
          await dropPagesBeyond(`${root}/${kind}`, options.perPage, pages)
        }
      }
      return finish(started)
    },
  }

  /** Removes the files of list pages past the last one, after a list got shorter. */
  async function dropPagesBeyond(list: string, size: number, pages: number) {
    for (let page = pages + 1; ; page++) {
      const file = fileFor(layout, listUrl(list, size, options.perPage, page))
      if (!output.manifest.has(file)) break
      await output.remove(file)
    }
  }
}
