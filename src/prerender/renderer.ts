import { createApp, type App } from '../app.ts'
import { holdVevents } from '../serialize/feed/plain-keys.ts'
import type { Store } from '../content/store.ts'
import type { Site } from '../context/site.ts'
import { fileFor, staticUrl, type Layout } from './file-layout.ts'
import type { ManifestEntry } from './manifest.ts'
import type { Output } from './output-files.ts'
import type { Job } from './public-urls.ts'

/** What an app for a build needs beyond its store. */
export interface AppSettings {
  site: Site
  perPage: number
  maxPerPage: number
  /** What feeds' VEVENTs may hold: the app that follows edits keeps every language's (`buildFeedBytes`). */
  feedCacheBytes?: number
}

/** Feeds' VEVENTs per language built: a 10,000-event calendar's are 10-20 MB, and an edit renders every language's. */
const FEED_BYTES_PER_LANGUAGE = 32 * 1024 * 1024

/** What the VEVENTs of a build's feeds may hold in the app that follows edits. */
export function buildFeedBytes(languages: number): number {
  return FEED_BYTES_PER_LANGUAGE * Math.max(1, languages)
}

/**
 * An app of its own for a build, without users: every answer is what an anonymous caller gets,
 * public only. Its serializers write the static links themselves, so no answer is parsed or
 * rewritten on its way to a file.
 */
export function createBuildApp(store: Store, settings: AppSettings, layout: Layout, now: () => number): App {
  const site: Site = {
    ...settings.site,
    links: { key: `static ${layout.publicUrl} ${layout.languages ?? 'all'}`, map: (url) => staticUrl(layout, url) },
  }
  const app = createApp({
    store,
    site,
    perPage: settings.perPage,
    maxPerPage: settings.maxPerPage,
    fallback: store.fallback,
    now,
    // A build asks each URL once (an update, once per change): a kept answer would never be served again.
    answerCache: false,
    // Its long texts are rendered by the thread that first needs them, once, and kept while their record is served.
    markdownThread: false,
    ...(settings.feedCacheBytes ? { feedCacheBytes: settings.feedCacheBytes } : {}),
  })
  // The app that follows edits renders every feed again after each: it holds their VEVENTs (plain-keys.ts).
  if (settings.feedCacheBytes) holdVevents(app.context().caches.feed)
  return app
}

/**
 * A feed file asks with the ETag of the answer last written to it, while the file still holds that answer: a feed's
 * ETag is composed of its parts' digests, so a 304 means the same bytes, and an edit does not join, hash and compare
 * the ~10 MB of each language's calendar feed it did not change.
 */
function conditionFor(file: string, tags: FeedTags, output: Output): Record<string, string> {
  const kept = tags.get(file)
  return kept && output.manifest.get(file) === kept.entry && output.holds(file) ? { 'if-none-match': kept.tag } : {}
}

/**
 * Each feed file's ETag, with the manifest entry its answer was written under: the tag counts only while that
 * entry is the manifest's (a full build reads the manifest again from disk, and then asks for every feed whole).
 */
export type FeedTags = Map<string, { tag: string; entry: ManifestEntry }>

/** Renders jobs into an output by asking the app, as a live client would. */
export interface Renderer {
  /**
   * The file written for a job, or undefined when its answer is a 4xx (a protected event). A 5xx
   * rejects, naming the URL: a build never leaves out a page the server failed to answer.
   */
  render(job: Job): Promise<string | undefined>
  /** Forgets what was rendered: a by-slug answer is linked only to a by-id answer of the same run. */
  reset(): void
}

/**
 * An answer's bytes. The app answers with srvx's FastResponse around the bytes it assembled;
 * srvx's own Node adapter takes them from `_toNodeResponse()`, and so does this, where
 * `arrayBuffer()` would first wrap them in a web Response (about a tenth of a build's time).
 */
async function bodyOf(response: Response): Promise<Buffer> {
  const fast = response as Response & { _toNodeResponse?: () => { body: unknown } }
  if (typeof fast._toNodeResponse !== 'function') return Buffer.from(await response.arrayBuffer())
  const { body } = fast._toNodeResponse()
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength)
  if (typeof body === 'string') return Buffer.from(body)
  if (body === null || body === undefined) return Buffer.alloc(0)
  return Buffer.from(await new Response(body as BodyInit).arrayBuffer())
}

/** The error a build fails with when the app answers a URL with a 5xx. */
export class ServerAnswerError extends Error {
  // A code marks it as a known failure: a render worker reports its message, not its stack.
  readonly code = 'ALMANAC_SERVER_ERROR'
}

/** Rejects when an answer is a server error (5xx), naming the URL and the error's message. */
export async function failOnServerError(url: string, response: Response): Promise<void> {
  const text = await response.text()
  if (response.status < 500) return
  let message = text.slice(0, 200)
  try {
    message = String((JSON.parse(text) as { message?: unknown }).message ?? message)
  } catch {}
  throw new ServerAnswerError(`${url} answered ${response.status}: ${message}`)
}

export function createRenderer(app: App, layout: Layout, output: Output, tags: FeedTags = new Map()): Renderer {
  const rendered = new Set<string>()
  return {
    async render(job) {
      const file = fileFor(layout, job.url)
      // Links do not depend on the path asked, so a by-slug answer is its record's by-id answer.
      if (job.sameAs && rendered.has(job.sameAs)) {
        await output.putSame(file, fileFor(layout, job.sameAs))
      } else {
        // Only a feed's ETag is kept: the headers of srvx's answer are made into web Headers when first read (over 1% of
        // a build's CPU when every answer's were), and a request with none is cheaper to make.
        const feed = file.endsWith('.ics')
        const request = feed
          ? new Request(job.url, { headers: conditionFor(file, tags, output) })
          : new Request(job.url)
        const response = await app.fetch(request)
        if (response.status === 304) return file
        if (response.status !== 200) {
          await failOnServerError(job.url, response)
          return undefined
        }
        const tag = feed ? response.headers.get('etag') : null // read before the body: srvx hands its headers on with it
        await output.put(file, await bodyOf(response))
        const entry = output.manifest.get(file)
        if (tag && entry) tags.set(file, { tag, entry })
      }
      rendered.add(job.url)
      return file
    },
    reset: () => rendered.clear(),
  }
}
