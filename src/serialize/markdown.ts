import { Worker } from 'node:worker_threads'
import { createMarkdownIt, isTooLongForMarkdown, markdownAsText } from './markdown-it.ts'
import type { MarkdownReply } from './markdown-worker.ts'
import type { MarkdownRenderer } from '../context/caches.ts'

/** Turns one text into HTML; may throw (a renderer's bug must not fail the answer around it). */
export type RenderFn = (markdown: string) => string

// Bounded by count and by size (the characters of each text and its HTML, at most 2 bytes each):
// a few long texts must not hold what thousands of short ones would.
const CACHE_LIMIT = 20_000
const CACHE_CHARACTERS = 4 * 1024 * 1024
// Below this many characters a text renders in a few milliseconds at worst; longer ones are
// rendered on a worker thread when a write brings them (`prepare`), off the event loop.
const OFF_THREAD_FROM = 4_096

/**
 * A renderer over `render`. A text it cannot render is served as escaped text in a paragraph,
 * and the failure is logged once (the fallback is cached like any answer).
 */
export function createMarkdownRenderer(
  render: RenderFn = createMarkdownIt(),
  log: (message: string) => void = console.error,
  offThread = createOffThread(),
): MarkdownRenderer {
  const rendered = new Map<string, string>()
  let characters = 0
  const failed = (markdown: string, error: Error) => {
    log(`almanac: Markdown of ${markdown.length} characters could not be rendered, served as text: ${error.message}`)
    return markdownAsText(markdown)
  }
  const keep = (markdown: string, html: string) => {
    // Rendering is costly and bodies repeat across requests; the oldest entries go when the cache is full.
    if (rendered.has(markdown)) return html
    characters += markdown.length + html.length
    rendered.set(markdown, html)
    for (const [oldest, old] of rendered) {
      if (rendered.size <= CACHE_LIMIT && characters <= CACHE_CHARACTERS) break
      rendered.delete(oldest)
      characters -= oldest.length + old.length
    }
    return html
  }
  const attempt = (markdown: string) => {
    try {
      return render(markdown).trim()
    } catch (error) {
      return failed(markdown, error as Error)
    }
  }
  return {
    render(markdown) {
      if (markdown === '') return ''
      return rendered.get(markdown) ?? keep(markdown, attempt(markdown))
    },
    async prepare(markdown) {
      // Markdown past what markdown-it reads is served as text, which takes no worker.
      if (markdown.length < OFF_THREAD_FROM || isTooLongForMarkdown(markdown) || rendered.has(markdown)) return
      const reply = await offThread(markdown).catch(() => undefined)
      // No worker (it could not start, or died): `render` renders the text here when it is asked for.
      if (reply === undefined) return
      keep(markdown, 'html' in reply ? reply.html.trim() : failed(markdown, new Error(reply.error)))
    },
  }
}

/** Renders on one worker thread, started when first needed; it keeps the process alive only while it works. */
function createOffThread(): (markdown: string) => Promise<MarkdownReply> {
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

/**
 * Renders a record's long texts (every language's body, its first paragraph, and excerpt) off the
 * event loop, so that a long description from a content file costs no answer its rendering. Undefined
 * when it has none: nearly every record, and a start asks this of each (a promise and a few arrays per
 * record made were ~20 MB of garbage at 10,000 events).
 */
export function prepareRecordMarkdown(
  markdown: MarkdownRenderer,
  record: { files: ReadonlyMap<string, { body: string; data: Record<string, unknown> }> },
): Promise<void> | undefined {
  let long: string[] | undefined
  for (const file of record.files.values()) {
    const excerpt = file.data.excerpt
    if (typeof excerpt === 'string' && excerpt.length >= OFF_THREAD_FROM) (long ??= []).push(excerpt)
    // Most bodies are short: they are rendered when asked for, and need not even be split here.
    if (file.body.length >= OFF_THREAD_FROM) (long ??= []).push(file.body, file.body.split(/\n\s*\n/)[0] ?? '')
  }
  return long && Promise.all(long.map((text) => markdown.prepare(text))).then(() => {})
}
