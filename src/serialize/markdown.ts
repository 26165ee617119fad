import { Worker } from 'node:worker_threads'
import { createMarkdownIt, isTooLongForMarkdown, markdownAsText } from './markdown-it.ts'
import type { MarkdownReply } from './markdown-worker.ts'
import type { MarkdownRenderer } from '../context/caches.ts'

/** Turns one text into HTML; may throw (a renderer's bug must not fail the answer around it). */
export type RenderFn = (markdown: string) => string
/** Renders a text somewhere other than the event loop (a worker thread); rejects when it cannot. */
export type OffThreadFn = (markdown: string) => Promise<MarkdownReply>

// Bounded by count and by size (the characters of each text and its HTML, at most 2 bytes each):
// a few long texts must not hold what thousands of short ones would.
const CACHE_LIMIT = 20_000
const CACHE_CHARACTERS = 4 * 1024 * 1024
// Below this many characters a text renders in ~10 ms at worst (`![` repeated, ~2 µs a character); longer ones
// are rendered on a worker thread when a write or a record brings them, off the event loop.
export const OFF_THREAD_FROM = 4_096

/** A long text a current record holds: how many hold it, and its HTML once rendered. */
interface Held {
  holders: number
  html?: string
  ready?: Promise<void>
}

/**
 * A renderer over `render`. A text it cannot render is served as escaped text in a paragraph,
 * and the failure is logged once (the fallback is kept like any answer). Without `offThread` (null: a static
 * build, whose threads all render pages) a held text is rendered where it is first asked for, and kept.
 */
export function createMarkdownRenderer(
  render: RenderFn = createMarkdownIt(),
  log: (message: string) => void = console.error,
  offThread: OffThreadFn | null = createOffThread(),
): MarkdownRenderer {
  const rendered = new Map<string, string>()
  let characters = 0
  // The long texts of the records served now, with their HTML, apart from the cache above: a text that costs up to
  // ~0.1 s must never be rendered again on the event loop because the cache let it go (fifty such texts pushed each
  // other out of it, and every list page then took seconds). They are bounded by the tree (each text is a record's,
  // and its HTML a few times its size at most), and go when no record holds them any more.
  const held = new Map<string, Held>()
  let heldCharacters = 0
  // Texts on their way to or from the worker: a body that is its own first paragraph is sent once.
  const pending = new Map<string, Promise<string | undefined>>()
  const failed = (markdown: string, error: Error) => {
    log(`almanac: Markdown of ${markdown.length} characters could not be rendered, served as text: ${error.message}`)
    return markdownAsText(markdown)
  }
  const keep = (markdown: string, html: string) => {
    // Rendering is costly and bodies repeat across requests; the oldest entries go when the cache is full.
    // A text larger than the whole cache is not kept: it would push every other out, and then itself.
    if (rendered.has(markdown) || markdown.length + html.length > CACHE_CHARACTERS) return html
    characters += markdown.length + html.length
    rendered.set(markdown, html)
    for (const [oldest, old] of rendered) {
      if (rendered.size <= CACHE_LIMIT && characters <= CACHE_CHARACTERS) break
      rendered.delete(oldest)
      characters -= oldest.length + old.length
    }
    return html
  }
  const unkeep = (markdown: string) => {
    const html = rendered.get(markdown)
    if (html === undefined) return undefined
    rendered.delete(markdown)
    characters -= markdown.length + html.length
    return html
  }
  // Where a rendered text goes: to its holders if a record holds it, else to the cache.
  const place = (markdown: string, html: string) => {
    const entry = held.get(markdown)
    if (!entry) return keep(markdown, html)
    if (entry.html === undefined) {
      entry.html = html
      heldCharacters += html.length
    }
    return entry.html
  }
  const attempt = (markdown: string) => {
    try {
      return render(markdown).trim()
    } catch (error) {
      return failed(markdown, error as Error)
    }
  }
  const elsewhere = (send: OffThreadFn, markdown: string) => {
    let html = pending.get(markdown)
    if (!html) {
      // No worker (it could not start, or died): `render` renders the text here when it is asked for.
      html = send(markdown).then(
        (reply) => ('html' in reply ? reply.html.trim() : failed(markdown, new Error(reply.error))),
        () => undefined,
      )
      pending.set(markdown, html)
      void html.then(() => pending.delete(markdown))
    }
    return html
  }
  return {
    render(markdown) {
      if (markdown === '') return ''
      return held.get(markdown)?.html ?? rendered.get(markdown) ?? place(markdown, attempt(markdown))
    },
    async prepare(markdown) {
      // Markdown past what markdown-it reads is served as text, which takes no worker here (a record's is held).
      if (markdown.length < OFF_THREAD_FROM || isTooLongForMarkdown(markdown)) return
      const entry = held.get(markdown)
      if (entry) return entry.ready
      if (rendered.has(markdown) || !offThread) return
      const html = await elsewhere(offThread, markdown)
      if (html !== undefined) place(markdown, html)
    },
    hold(markdown) {
      // Short texts render in milliseconds at worst, and are left to the cache.
      if (markdown.length < OFF_THREAD_FROM) return undefined
      const entry = held.get(markdown)
      if (entry) {
        entry.holders++
        return entry.ready
      }
      const html = unkeep(markdown)
      const added: Held = html === undefined ? { holders: 1 } : { holders: 1, html }
      held.set(markdown, added)
      if (html !== undefined) heldCharacters += html.length
      else if (offThread) {
        // Past what markdown-it reads too: escaping 4 MB of quotes as text takes ~0.7 s.
        added.ready = elsewhere(offThread, markdown).then((done) => {
          added.ready = undefined
          if (done !== undefined && held.get(markdown) === added) place(markdown, done)
        })
      }
      return added.ready
    },
    release(markdown) {
      const entry = held.get(markdown)
      if (!entry || --entry.holders > 0) return
      held.delete(markdown)
      if (entry.html !== undefined) heldCharacters -= entry.html.length
    },
    held: () => ({ texts: held.size, characters: heldCharacters }),
  }
}

/** Renders on one worker thread, started when first needed; it keeps the process alive only while it works. */
function createOffThread(): OffThreadFn {
  let worker: Worker | undefined
  const waiting = new Map<number, { resolve: (reply: MarkdownReply) => void; reject: (error: Error) => void }>()
  let next = 0
  const failAll = (error: Error) => {
    worker = undefined
    for (const { reject } of waiting.values()) reject(error)
    waiting.clear()
  }
  const start = () => {
    const started = new Worker(new URL('./markdown-worker.mjs', import.meta.url))
    started.on('message', (reply: MarkdownReply) => {
      waiting.get(reply.id)?.resolve(reply)
      waiting.delete(reply.id)
      if (waiting.size === 0) started.unref()
    })
    started.on('error', failAll)
    started.on('exit', (code) => failAll(new Error(`the Markdown worker exited with code ${code}`)))
    return started
  }
  return (markdown) =>
    new Promise((resolve, reject) => {
      worker ??= start()
      worker.ref()
      const id = next++
      waiting.set(id, { resolve, reject })
      worker.postMessage({ id, markdown })
    })
}
