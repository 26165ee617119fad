import { resolve } from 'node:path'
import type { BuildOptions, BuildResult, SiteBuilder } from './build-options.ts'
import type { Kind } from '../content/model/kinds.ts'
import { LANGUAGES, type Lang } from '../languages.ts'
import { changedPages, eventListIds, recordUrls, touchedRecords } from './affected-pages.ts'
import { estimateScopedBytes, isCalendarFeed, isScopedFeed, touchedFeeds } from './feed-files.ts'
import { extraFiles } from './host-files.ts'
import { fileFor, slugHasFile } from './file-layout.ts'
import { Manifest, readManifest } from './manifest.ts'
import { createOutput, readyOutput, writeManifest, type Output } from './output-files.ts'
import { isEmptyFolder } from './fresh-files.ts'
import { type Pool, renderBeside, workersFor, type Rendered } from './render-pool.ts'
import { buildFeedBytes, createBuildApp, createRenderer, failOnServerError, type FeedTags } from './renderer.ts'
import { buildUrls, listUrl, namespaceRoot, publicJobs, type Job } from './public-urls.ts'
import { HOST_LIMIT_BYTES, SLUG_INDEX, SlugIndex, slugFiles, type SlugPages, writesSlugPages } from './slug-files.ts'

export type { BuildOptions, BuildResult, SiteBuilder } from './build-options.ts'

/** Renders every public GET into `out` by asking the app for it, so static and live answers cannot disagree. */
export async function buildSite(options: BuildOptions): Promise<BuildResult> {
  return createSiteBuilder(options).full()
}

/** A builder over one store. Links point at the static files; a file is replaced (atomically) only when its
 * content changed, and removed when no record renders it any more. */
export function createSiteBuilder(options: BuildOptions): SiteBuilder {
  const { store } = options
  const out = resolve(options.out)
  const { layout, urlOptions } = buildUrls(options)
  const languages = urlOptions.languages ?? LANGUAGES
  const wide = urlOptions.bulkPerPage
  const listSizes = wide ? [options.perPage, wide] : [options.perPage]
  const clock = options.now ?? Date.now
  // One instant per run, so every list of a build has the same default window.
  let now = clock()
  const app = createBuildApp(store, { ...options, feedCacheBytes: buildFeedBytes(languages.length) }, layout, () => now)
  let output: Output = createOutput(out, new Manifest(), false)
  const feedTags: FeedTags = new Map() // each feed file's last ETag, for updates' conditional asks (renderer.ts)
  let renderer = createRenderer(app, layout, output, feedTags)
  const recordFiles = new Map<string, Set<string>>()
  const slugIndex = new SlugIndex()
  // Decided by each full build (see `writesSlugPages`); updates keep the decision.
  let slugsWritten = options.slugPages !== false
  let scopedFeeds = options.feeds !== false // likewise the feeds of categories, tags, venues, organizers
  const written = (url: string) => output.manifest.has(fileFor(layout, url))
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
    const jobs = recordUrls(store, kind, id, urlOptions)
    slugIndex.set(key, jobs)
    for (const job of jobs) if (!job.sameAs || (slugsWritten && slugHasFile(job.slug!.slug))) await render(job)
    const files = recordFiles.get(key) ?? new Set<string>()
    return [...before].filter((old) => !files.has(old))
  }
  // The index of slugs, then the by-slug files when they are to be written (`writesSlugPages`), of the by-id files this
  // build keeps: one left by an earlier build, its record no longer public, would publish the record as it was.
  const putSlugPages = async (jobs: Job[], kept: Set<string>): Promise<SlugPages> => {
    const fileOf = (url: string) => fileFor(layout, url)
    slugIndex.replaceAll(jobs)
    await output.put(SLUG_INDEX, Buffer.from(slugIndex.text((url) => kept.has(fileOf(url)))))
    kept.add(SLUG_INDEX)
    const { pairs, bytes } = slugFiles(jobs, fileOf, (byId) => (kept.has(byId) ? output.manifest.get(byId) : undefined))
    const others = [...kept].reduce((sum, file) => sum + (output.manifest.get(file)?.bytes ?? 0), 0)
    slugsWritten = writesSlugPages(options.slugPages, others + bytes, options.hostLimitBytes)
    if (!slugsWritten) return { files: pairs.length, bytes, written: false }
    for (const [job, file, source] of pairs) {
      await output.putSame(file, source)
      kept.add(file)
      noteFile(job, file)
    }
    return { files: pairs.length, bytes, written: true }
  }
  const renderHere = async (jobs: Job[], progress = options.onProgress): Promise<Rendered> => {
    const results: Rendered['results'] = []
    for (const [i, job] of jobs.entries()) {
      const file = await renderer.render(job)
      results.push(file ? [file, output.manifest.get(file)!] : null)
      progress?.(i + 1, jobs.length)
    }
    return { results, written: 0 }
  }
  /** A full build's pages; with workers, the calendar feeds here meanwhile (`renderBeside`). */
  const renderPages = async (jobs: Job[], pool: Pool | undefined): Promise<[Job[], Rendered]> =>
    pool
      ? renderBeside(pool, jobs, isCalendarFeed, renderHere, (done, all) => options.onProgress?.(done, all))
      : [jobs, await renderHere(jobs)]
  const start = () => {
    now = clock()
    renderer.reset()
    return performance.now()
  }
  const finish = async (started: number, also = 0): Promise<BuildResult> => {
    await output.drain()
    const { manifest } = output
    const head = {
      generated: new Date(now).toISOString(),
      public_url: layout.publicUrl,
      slug_pages: slugsWritten,
      scoped_feeds: urlOptions.feeds && scopedFeeds,
    }
    await writeManifest(out, manifest, head)
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
      const [previous] = await Promise.all([readManifest(out), readyOutput(out)])
      const fresh = previous.size === 0 && (await isEmptyFolder(out))
      output = createOutput(out, new Manifest(previous), false, fresh)
      renderer = createRenderer(app, layout, output, feedTags)
      recordFiles.clear()
      slugIndex.clear()
      const pool = workersFor({ ...options, layout, out, now, languages }, previous, fresh)
      let pages: Job[] = []
      let bySlug: Job[] = []
      let scopedJobs: Job[] = []
      let rendered: Rendered
      try {
        const jobs = await publicJobs(app, store, urlOptions, now)
        // By-slug files are links to by-id files, made once those are written and the size is known.
        // So are the feeds of categories, tags, venues and organizers, when the site has room for them.
        bySlug = jobs.filter((job) => job.sameAs)
        scopedJobs = jobs.filter((job) => isScopedFeed(job.url))
        ;[pages, rendered] = await renderPages(
          jobs.filter((job) => !job.sameAs && !isScopedFeed(job.url)),
          pool,
        )
      } finally {
        await pool?.close()
      }
      const kept = new Set<string>()
      rendered.results.forEach((result, i) => {
        if (!result) return
        output.manifest.set(...result)
        kept.add(result[0])
        noteFile(pages[i]!, result[0])
      })
      for (const lang of languages) eventLists.set(lang, eventListIds(app, lang, now))
      for await (const [file, bytes] of extraFiles(store, options.site, layout.publicUrl)) {
        kept.add(file)
        await output.put(file, bytes)
      }
      const scoped = await putScopedFeeds(scopedJobs, kept)
      const slugPages = await putSlugPages(bySlug, kept)
      for (const file of [...output.manifest.keys()]) if (!kept.has(file)) await output.remove(file)
      const result = await finish(started, rendered.written)
      output = createOutput(out, output.manifest, false, false, true) // updates replace files, no link on their way
      renderer = createRenderer(app, layout, output, feedTags)
      return { ...result, slugPages, ...(scoped ? { scopedFeeds: scoped } : {}) }
    },

    async update(changes) {
      const started = start()
      const touched = touchedRecords(store, app, changes)
      const [kinds, stale, changedEvents] = [new Set<Kind>(), [] as string[], new Set<number>()]
      for (const key of touched) {
        const [kind, id] = key.split('/') as [Kind, string]
        kinds.add(kind)
        if (kind === 'events') changedEvents.add(Number(id))
        stale.push(...(await renderRecord(kind, Number(id))))
      }
      // A file a record no longer renders goes, unless another took it in this update (a slug given up and taken).
      for (const file of stale)
        if (![...recordFiles.values()].some((files) => files.has(file))) await output.remove(file)
      if (slugIndex.changed(touched, written)) await output.put(SLUG_INDEX, Buffer.from(slugIndex.text(written)))
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
      if (urlOptions.feeds)
        for (const job of touchedFeeds(store, changes, urlOptions, languages, scopedFeeds)) await renderFeed(job)
      return finish(started)
    },
  }

  /**
   * The feeds of categories, tags, venues and organizers, rendered here after the rest: always when told so, else
   * only while the site with them stays within the host's limit (estimated first, so a site far past it renders
   * none); those past it leave `kept`, and the build removes them.
   */
  async function putScopedFeeds(jobs: Job[], kept: Set<string>): Promise<SlugPages | undefined> {
    if (jobs.length === 0) return undefined
    const bytesOf = (files: Iterable<string>) =>
      [...files].reduce((sum, file) => sum + (output.manifest.get(file)?.bytes ?? 0), 0)
    const limit = options.hostLimitBytes ?? HOST_LIMIT_BYTES
    const estimate = estimateScopedBytes(store, bytesOf([...kept].filter(isCalendarFeed)))
    if (options.feeds === undefined && bytesOf(kept) + estimate > limit) {
      scopedFeeds = false
      return { files: jobs.length, bytes: estimate, written: false }
    }
    const files = (await renderHere(jobs)).results.flatMap((result) => (result ? [result[0]] : []))
    for (const file of files) kept.add(file)
    scopedFeeds = options.feeds ?? bytesOf(kept) <= limit
    if (!scopedFeeds) for (const file of files) kept.delete(file)
    return { files: files.length, bytes: bytesOf(files), written: scopedFeeds }
  }

  /** A feed again; its file goes when the feed is no longer public (its venue was unpublished). */
  async function renderFeed(job: Job) {
    const file = await render(job)
    if (!file && output.manifest.has(fileFor(layout, job.url))) await output.remove(fileFor(layout, job.url))
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
