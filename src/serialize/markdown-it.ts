import MarkdownIt from 'markdown-it'
import { proseHtml } from './prose.ts'

// Real descriptions nest a few levels; deeper structure (a hostile `>>>>…`) is not rendered further,
// where unbounded recursion overflowed the stack.
const MAX_NESTING = 64
// Schemes a Markdown link or image may use; anything else (javascript:, data:, vbscript:…) becomes no link.
const LINK_SCHEMES = /^(https?|mailto|tel):/i
const IMAGE_SCHEMES = /^https?:/i
const SCHEME = /^[a-z][a-z0-9+.-]*:/i

/** Whether a Markdown link target is safe to serve: relative, or one of the allowed schemes. */
export function isSafeLink(url: string, image = false): boolean {
  const target = url.trim()
  if (!SCHEME.test(target)) return true
  return (image ? IMAGE_SCHEMES : LINK_SCHEMES).test(target)
}

/**
 * The longest text rendered as Markdown. markdown-it reads any text in linear time, but at up to ~2.6 µs a character
 * for hostile patterns (`![![![…`), and prose (prose.ts, which skips it) at up to ~1 µs: a 4 MB content file (the
 * most the store reads) held the event loop 11 s whenever an answer needed it before the worker thread had rendered
 * it, and every time once it was too large for the renderer's cache. At this length the worst is ~0.1 s (a cold
 * feed yields between such events: feed-segments.ts). A longer text is served as text (`markdownAsText`).
 */
export const MAX_MARKDOWN_CHARS = 32_768

/** Whether a text is too long to be read as Markdown (it is served as text). */
export function isTooLongForMarkdown(markdown: string): boolean {
  return markdown.length > MAX_MARKDOWN_CHARS
}

/**
 * Markdown to HTML as the API serves it, bounded nesting and safe links only; prose (prose.ts) skips markdown-it,
 * and a text past MAX_MARKDOWN_CHARS is served as text.
 */
export function createMarkdownIt(): (markdown: string) => string {
  const render = createFullMarkdownIt()
  return (markdown) =>
    isTooLongForMarkdown(markdown) ? markdownAsText(markdown) : (proseHtml(markdown) ?? render(markdown))
}

/** A text as escaped HTML: its paragraphs (apart by a blank line) each a `<p>`, the rest as written. */
export function markdownAsText(markdown: string): string {
  return markdown
    .split(/\n[ \t]*\n/)
    .filter((paragraph) => paragraph.trim() !== '')
    .map((paragraph) => `<p>${escapeHtml(paragraph.trim())}</p>`)
    .join('\n')
}

/** Escapes text for HTML, as WordPress's `esc_html` does for JSON-LD descriptions. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#039;')
}

/** `createMarkdownIt` with every text through markdown-it, prose too. */
export function createFullMarkdownIt(): (markdown: string) => string {
  const md = new MarkdownIt({ html: true, linkify: true, maxNesting: MAX_NESTING })
  md.validateLink = (url) => isSafeLink(url)
  const image = md.renderer.rules.image!
  // validateLink cannot tell an image from a link: images are held to http(s) here.
  md.renderer.rules.image = (tokens, i, options, env, self) => {
    if (!isSafeLink(String(tokens[i]!.attrGet('src') ?? ''), true)) tokens[i]!.attrSet('src', '')
    return image(tokens, i, options, env, self)
  }
  return (markdown) => md.render(markdown)
}
